// The Settings panel: the hosts, the key and the callback URL, or, when the page runs through a
// companion (`cargo xtask demo`), only the companion's URL: the page then holds no key to offer. A
// change is checked whole before any of it is applied: a refused value leaves the page on the
// settings it had.
import { $, el, fieldLabels } from "./dom.js";
import { alertPlace, clearErrorsOnEdit, clearFieldErrors, showError, showFieldError } from "./messages.js";
import { DEV_KEY, describeOperation, loadDescription, makeClient } from "./service.js";
import { on, set, state } from "./store.js";
import { describePanel } from "./callbacks.js";
import { refreshCredits } from "./credits.js";

const form = () => $("#settings-form");
const DIRECT = ["baseUrl", "uploadUrl", "apiKey", "callBackUrl"];

/** Through a companion, the page has no key and no callback URL of its own to offer. */
const viaCompanion = (settings = state.settings) => typeof settings?.companionUrl === "string";

function read() {
  const f = form().elements;
  const trim = (name) => f[name].value.trim().replace(/\/$/, "");
  // Through the companion only its URL is the page's to change; the rest stays as it was.
  if (viaCompanion()) return { ...state.settings, companionUrl: trim("companionUrl") };
  return { baseUrl: trim("baseUrl"), uploadUrl: trim("uploadUrl"), apiKey: f.apiKey.value.trim(), callBackUrl: f.callBackUrl.value.trim(), companionUrl: null };
}

const hostOf = (url) => { try { return new URL(url).host; } catch { return url; } };

function fill(settings) {
  const companion = viaCompanion(settings);
  for (const node of form().querySelectorAll("[data-mode]")) {
    node.hidden = node.dataset.mode !== (companion ? "companion" : "direct");
    for (const input of node.querySelectorAll("input")) input.disabled = node.hidden;
  }
  const f = form().elements;
  if (companion) f.companionUrl.value = settings.companionUrl;
  else for (const name of DIRECT) f[name].value = settings[name];
  $("#settings-summary").textContent = companion
    ? `· through the companion at ${hostOf(settings.companionUrl)}`
    : `· ${hostOf(settings.baseUrl)}${settings.apiKey === DEV_KEY ? " · development key" : ""}`;
}

/** A URL the settings take: http:// or https://, else a ValidationError naming `field`. */
function checkHttpUrl(url, field) {
  let ok = false;
  try {
    ok = /^https?:$/.test(new URL(url).protocol);
  } catch {
    // Not a URL at all.
  }
  if (!ok) {
    throw Object.assign(new Error(`\`${field}\` must be an http:// or https:// URL`), { kind: "validation", field });
  }
}

/**
 * Applies `settings` whole, or nothing: the client is built (and the URLs checked by the package)
 * before anything is stored. Throws what refused them. `description`: the music host's
 * `/openapi.json` when the caller already has it.
 */
export async function apply(settings, description) {
  // The callback URL is not a client option (the request checks it), nor the companion's URL's
  // scheme: Settings checks both first.
  if (viaCompanion(settings)) checkHttpUrl(settings.companionUrl, "companionUrl");
  else if (settings.callBackUrl) checkHttpUrl(settings.callBackUrl, "callBackUrl");
  const client = makeClient(settings);
  const service = description !== undefined ? description
    : settings.baseUrl === state.settings?.baseUrl ? state.service : await loadDescription(settings.baseUrl);
  set("settings", settings);
  set("client", client);
  // Another host without a description (the real service) keeps the operations already known.
  if (service !== state.service && (service || !state.service)) set("service", service);
  fill(settings);
  describePanel();
  refreshCredits();
}

/** The error answers worth simulating: those the service documents for creating a song. */
function fillEmulateCodes(doc) {
  const select = form().elements.emulateCode;
  const codes = (describeOperation(doc, "generate")?.codes ?? []).filter((c) => c.code !== 200);
  const chosen = select.value;
  select.replaceChildren(select.options[0], ...codes.map((c) => el("option", { value: String(c.code), textContent: `${c.code} · ${c.meaning}` })));
  select.value = chosen;
}

export function initSettings() {
  const f = form();
  on("service", fillEmulateCodes);
  clearErrorsOnEdit(f);
  on("emulateCode", (code) => { f.elements.emulateCode.value = code; });
  f.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearFieldErrors(f);
    const note = $("#settings-note");
    const alerts = alertPlace(note.parentElement);
    alerts.replaceChildren();
    const emulateCode = f.elements.emulateCode.value;
    try {
      await apply(read());
      set("emulateCode", emulateCode);
      note.textContent = state.emulateCode ? `The next request will be answered with code ${state.emulateCode}.` : "Applied.";
    } catch (error) {
      note.textContent = "Nothing was changed.";
      const where = { roots: [f], labels: fieldLabels(f), inline: alerts };
      if (!showFieldError(error, where)) showError(error, where);
    }
  });
}
