// The Settings panel: the hosts, the key and the callback URL. A change is checked whole before
// any of it is applied: a refused value leaves the page on the settings it had.
import { $, el, fieldLabels } from "./dom.js";
import { clearErrorsOnEdit, clearFieldErrors, showError, showFieldError } from "./messages.js";
import { DEV_KEY, describeOperation, loadDescription, makeClient } from "./service.js";
import { on, set, state } from "./store.js";
import { refreshCredits } from "./credits.js";

const form = () => $("#settings-form");
const NAMES = ["baseUrl", "uploadUrl", "apiKey", "callBackUrl"];

function read() {
  const f = form().elements;
  const trim = (name) => f[name].value.trim().replace(/\/$/, "");
  return { baseUrl: trim("baseUrl"), uploadUrl: trim("uploadUrl"), apiKey: f.apiKey.value.trim(), callBackUrl: f.callBackUrl.value.trim() };
}

function fill(settings) {
  for (const name of NAMES) form().elements[name].value = settings[name];
  const host = (() => { try { return new URL(settings.baseUrl).host; } catch { return settings.baseUrl; } })();
  $("#settings-summary").textContent = `· ${host}${settings.apiKey === DEV_KEY ? " · development key" : ""}`;
}

/** The callback URL is not a client option: the request checks it; Settings checks it first. */
function checkCallback(url) {
  let ok = false;
  try {
    ok = /^https?:$/.test(new URL(url).protocol);
  } catch {
    // Not a URL at all.
  }
  if (!ok) {
    throw Object.assign(new Error("`callBackUrl` must be an http:// or https:// URL"), { kind: "validation", field: "callBackUrl" });
  }
}

/**
 * Applies `settings` whole, or nothing: the client is built (and the URLs checked by the package)
 * before anything is stored. Throws what refused them. `description`: the music host's
 * `/openapi.json` when the caller already has it.
 */
export async function apply(settings, description) {
  const client = makeClient(settings);
  if (settings.callBackUrl) checkCallback(settings.callBackUrl);
  const service = description !== undefined ? description
    : settings.baseUrl === state.settings?.baseUrl ? state.service : await loadDescription(settings.baseUrl);
  set("settings", settings);
  set("client", client);
  // Another host without a description (the real service) keeps the operations already known.
  if (service !== state.service && (service || !state.service)) set("service", service);
  fill(settings);
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
    const emulateCode = f.elements.emulateCode.value;
    try {
      await apply(read());
      set("emulateCode", emulateCode);
      note.textContent = state.emulateCode ? `The next request will be answered with code ${state.emulateCode}.` : "Applied.";
    } catch (error) {
      note.textContent = "Nothing was changed.";
      const where = { roots: [f], labels: fieldLabels(f) };
      if (!showFieldError(error, where)) showError(error, where);
    }
  });
}
