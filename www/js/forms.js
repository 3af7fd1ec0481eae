// The operation forms: one tab per operation the page offers, each form built from that
// operation's description in the service's `/openapi.json` (fields.js makes each field), with
// the page's own labels and starting values (operations.js); the request collected, sent and
// followed.
import { $, el, fieldLabels, formatDuration, shortTitle } from "./dom.js";
import { alertPlace, clearErrorsOnEdit, clearFieldErrors, nameMethods, showError, showFieldError } from "./messages.js";
import { checkRequest } from "./check.js";
import { byRank, field, labelFor } from "./fields.js";
import { METHODS, OPERATIONS } from "./operations.js";
import { refreshCredits } from "./credits.js";
import { callOptions, describeOperation } from "./service.js";
import { on, set, state } from "./store.js";
import { openTask } from "./task.js";
import { notAudioSource, sourceErrors } from "./upload.js";

const form = () => $("#op-form");
/** Fields a form does not show: the source comes from its panel, the callback URL from Settings. */
const FROM_ELSEWHERE = new Set(["uploadUrl", "callBackUrl"]);

/** The operations both offered by the page and described by the service, with their fields. */
function offered() {
  return OPERATIONS.map((op) => ({ ...op, described: describeOperation(state.service, op.name) })).filter((op) => op.described);
}
const current = () => offered().find((op) => op.name === state.op);

/** Where a request's errors show: this form, the source panel, Settings (the callback URL). */
function requestErrors() {
  const src = sourceErrors();
  return {
    roots: [form(), ...src.roots, $("#settings-form")],
    labels: { ...fieldLabels($("#settings-form")), ...src.labels, ...fieldLabels(form()) },
  };
}

function render() {
  const op = current();
  const fields = $("#fields");
  clearFieldErrors(form());
  if (!op) {
    fields.replaceChildren(el("p", { className: "muted", textContent: "This music host does not describe its operations (no /openapi.json), so the forms cannot be built. Point the Music API URL in Settings at the emulator (cargo xtask demo)." }));
    $("#go").disabled = true;
    return;
  }
  $("#go").disabled = false;
  $("#op-blurb").textContent = op.described.summary;
  const shown = op.described.fields.filter((f) => !FROM_ELSEWHERE.has(f.name)).sort(byRank(op));
  fields.replaceChildren(...shown.map((f) => field(op, f, boost)));
  refreshTrackChoices();
  const draft = state.drafts[op.name];
  for (const [name, value] of Object.entries(draft ?? {})) {
    const input = form().elements[name];
    if (!input) continue;
    if (input.type === "checkbox") input.checked = value;
    else input.value = value;
    input.dispatchEvent(new Event("input"));
  }
  showMode();
  $("#go").textContent = op.label;
  const credits = op.described.credits;
  $("#cost").textContent = [
    op.source === "upload" ? "Uses the uploaded file" : null,
    credits != null ? `${credits} credits` : null,
    // The service charges when it takes the task, before it reads the source.
    op.source === "upload" && credits ? "charged even if the file is not usable audio" : null,
  ].filter(Boolean).join(" · ");
  updateCode();
}

/** The wrapper of field `name` in the form on show. */
const fieldBox = (name) => form().querySelector(`[data-field="${CSS.escape(name)}"]`);

/**
 * Shows only the fields of the mode chosen (generate's `customMode`): the other mode's are
 * hidden, and not sent, since the service refuses them by name.
 */
function showMode() {
  const op = current();
  const mode = form().elements.customMode;
  if (!op || mode?.type !== "checkbox") return;
  const custom = mode.checked;
  for (const name of op.described.customOnly) fieldBox(name)?.toggleAttribute("hidden", !custom);
  for (const name of op.described.nonCustomOnly) fieldBox(name)?.toggleAttribute("hidden", custom);
}

/** Whether field `name` is shown (not of the mode that is off). */
const isShown = (name) => !fieldBox(name)?.hidden;

/** A list field's value: its non-empty lines. */
const lines = (text) => text.split("\n").map((l) => l.trim()).filter(Boolean);

function saveDraft() {
  const op = current();
  if (!op) return;
  const draft = {};
  for (const input of form().querySelectorAll("[data-control-for]")) draft[input.name] = input.type === "checkbox" ? input.checked : input.value;
  state.drafts[op.name] = draft;
}

/** Shows operation `name`'s form; the edits of the one on show are kept as its draft. */
export function showOperation(name) {
  if (state.op === name) return;
  saveDraft();
  set("op", name);
}

function renderTabs() {
  const ops = offered();
  if (!ops.some((op) => op.name === state.op)) state.op = ops[0]?.name ?? null;
  $("#ops").replaceChildren(...ops.map((op) => {
    const input = el("input", { type: "radio", name: "op", id: `op-${op.name}`, value: op.name, checked: op.name === state.op });
    input.addEventListener("change", () => { saveDraft(); set("op", op.name); });
    return el("div", { className: "tab" }, input, el("label", { htmlFor: input.id, textContent: op.label }));
  }));
  nameMethods(Object.fromEntries(ops.map((op) => [op.name, op.label])));
  render();
}

/** The request exactly as the form would send it. */
function collect() {
  const op = current();
  const request = {};
  if (op.source === "upload" && state.upload) request.uploadUrl = state.upload.downloadUrl;
  for (const f of op.described.fields) {
    const input = form().elements[f.name];
    if (!input || !isShown(f.name)) continue;
    if (input.type === "checkbox") request[f.name] = input.checked;
    else if (f.type === "array") {
      const urls = lines(input.value);
      if (urls.length) request[f.name] = urls;
    }
    else if (f.type === "number" || f.type === "integer") {
      if (input.value !== "") request[f.name] = Number(input.value);
    } else {
      const value = input.value.trim();
      if (value !== "" || f.required) request[f.name] = value;
    }
  }
  if (op.described.fields.some((f) => f.name === "callBackUrl")) request.callBackUrl = state.settings.callBackUrl;
  return request;
}

/** Code in a literal: written as is (`file.downloadUrl`), not as a string. */
class Code {
  constructor(text) {
    this.text = text;
  }
}

/** `value` as JavaScript source, as a person writes it: keys unquoted where they are names. */
function jsLiteral(value, indent = "") {
  if (value instanceof Code) return value.text;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    return value.length ? `[\n${value.map((v) => `${inner}${jsLiteral(v, inner)}`).join(",\n")},\n${indent}]` : "[]";
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value);
    const key = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
    return entries.length ? `{\n${entries.map(([k, v]) => `${inner}${key(k)}: ${jsLiteral(v, inner)}`).join(",\n")},\n${indent}}` : "{}";
  }
  return JSON.stringify(value);
}

function updateCode() {
  const op = current();
  if (!op) return;
  const request = collect();
  if (op.source === "upload" && !state.upload) request.uploadUrl = new Code("file.downloadUrl");
  $("#code").textContent =
    `const { taskId } = await client.${op.name}(${jsLiteral(request)});\n` +
    `const task = await client.waitForTask(taskId, { onProgress: (t) => show(t.stage, t.tracks) });`;
}

/** The tracks of the task on show, offered as sources ("Track to extend"): title, length, short id. */
function refreshTrackChoices() {
  const select = form().elements.audioId;
  if (select?.tagName !== "SELECT") return;
  const tracks = [...(state.task?.tracks.values() ?? [])];
  const chosen = select.value || state.chosenTrack;
  const options = tracks.map((t, i) => el("option", { value: t.id, textContent: `${t.title || "Untitled"} · Track ${i + 1} · ${formatDuration(t.duration)} · ${t.id.slice(0, 8)}` }));
  options.unshift(el("option", { value: "", textContent: tracks.length ? "Pick a track of the song on show" : "No track yet: make a song, or open one from Your tasks" }));
  select.replaceChildren(...options);
  if (tracks.some((t) => t.id === chosen)) select.value = chosen;
}

/** Values that fit the chosen source, e.g. an extension that starts within the chosen track. */
function fitSource() {
  const op = current();
  const id = form().elements.audioId?.value.trim();
  const track = id && state.task?.tracks.get(id);
  if (!op?.fit || !track) return;
  const limits = Object.fromEntries(op.described.fields.map((f) => [f.name, f.maxLength]));
  for (const [name, value] of Object.entries(op.fit(track))) {
    const input = form().elements[name];
    if (!input || value === "") continue;
    input.value = name === "title" && limits.title ? shortTitle(value, limits.title) : value;
    // As if typed: counters and the code sample follow.
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }
}

/** Where the step's own errors show: under its Create button. */
const formAlerts = () => alertPlace($("#go").parentElement);

async function submit() {
  clearFieldErrors(form());
  formAlerts().replaceChildren();
  clearFieldErrors($("#h-source").closest("section"));
  const op = current();
  const request = collect();
  const go = $("#go");
  go.disabled = true;
  go.classList.add("busy");
  try {
    // The package checks the request before anything is sent; every broken field is shown at once.
    await checkRequest(op.name, request, op.described);
    // The service takes the credits before it reads the source: a file that is not audio is
    // refused here, before it costs anything.
    if (op.source === "upload" && state.upload) {
      const refusal = await notAudioSource(state.upload, op.described.credits);
      if (refusal) throw Object.assign(new Error(refusal), { kind: "validation", field: "uploadUrl", rule: "audio" });
    }
    const { taskId } = await state.client[op.name](request, callOptions());
    go.disabled = false;
    go.classList.remove("busy");
    await openTask(taskId, { op: op.name, title: request.title || null, created: true });
  } catch (error) {
    showError(error, { ...requestErrors(), inline: formAlerts() });
  } finally {
    go.disabled = false;
    go.classList.remove("busy");
  }
}

async function boost(input, button) {
  const content = input.value.trim() || input.placeholder;
  button.disabled = true;
  button.textContent = "Boosting…";
  formAlerts().replaceChildren();
  try {
    const boosted = await state.client.boostStyle({ content }, callOptions());
    // A boost costs a credit.
    refreshCredits();
    if (boosted.result) {
      input.value = boosted.result;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }
  } catch (error) {
    // The booster's own field is the one this button sits next to.
    const where = { roots: [form()], labels: { content: labelFor(current(), input.name) }, inline: formAlerts() };
    if (error?.kind === "validation") showFieldError({ field: input.name, message: error.message }, where);
    else showError(error, where);
  } finally {
    button.disabled = false;
    button.textContent = "✦ Boost";
  }
}

export function initForms() {
  nameMethods(METHODS);
  const f = form();
  clearErrorsOnEdit(f);
  f.addEventListener("input", (event) => {
    if (event.target.name === "audioId") fitSource();
    if (event.target.name === "customMode") showMode();
    updateCode();
  });
  f.addEventListener("change", (event) => {
    if (event.target.name === "customMode") showMode();
    updateCode();
  });
  f.addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  on("service", renderTabs);
  on("op", () => {
    const tab = $(`#op-${CSS.escape(state.op)}`);
    if (tab) tab.checked = true;
    render();
  });
  on("upload", updateCode);
  on("settings", updateCode);
  on("task", refreshTrackChoices);
  on("chosenTrack", (id) => {
    const target = offered().find((op) => op.source === "track");
    if (!target) return;
    if (state.op !== target.name) {
      saveDraft();
      set("op", target.name);
    }
    const input = form().elements.audioId;
    if (!input) return;
    input.value = id;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.focus();
  });
}
