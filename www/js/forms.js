// The operation forms: one tab per operation the page offers, each form built from that
// operation's description in the service's `/openapi.json` (fields, types, required flags,
// limits, enum values, docs), with the page's own labels and starting values (operations.js).
import { $, el, fieldLabels } from "./dom.js";
import { clearErrorsOnEdit, clearFieldErrors, nameMethods, showError, showFieldError } from "./messages.js";
import { LABELS, METHODS, OPERATIONS, SLIDERS, VALUE_LABELS } from "./operations.js";
import { callOptions, describeOperation } from "./service.js";
import { on, set, state } from "./store.js";
import { openTask } from "./task.js";
import { sourceErrors } from "./upload.js";

const form = () => $("#op-form");
/** Fields a form does not show: the source comes from its panel, the callback URL from Settings. */
const FROM_ELSEWHERE = new Set(["uploadUrl", "callBackUrl"]);

/** The operations both offered by the page and described by the service, with their fields. */
function offered() {
  return OPERATIONS.map((op) => ({ ...op, described: describeOperation(state.service, op.name) })).filter((op) => op.described);
}
const current = () => offered().find((op) => op.name === state.op);

const spaced = (name) => name.replace(/([A-Z])/g, " $1").replace(/^./, (c) => c.toUpperCase());
const labelFor = (op, name) => op.labels?.[name] ?? LABELS[name] ?? spaced(name);

/** The widget a field's schema calls for. */
function widget(op, f) {
  if (op.source === "track" && f.name === "audioId") return "track";
  if (f.type === "boolean") return "checkbox";
  if (f.enum) return "select";
  if ((f.type === "number" || f.type === "integer") && f.maximum - f.minimum <= 1) return "slider";
  if (f.type === "integer" && f.maximum - f.minimum <= 10) return "steps";
  if (f.type === "number" || f.type === "integer") return "number";
  return op.wide?.includes(f.name) ? "textarea" : "text";
}

function control(op, f, kind, id) {
  const start = op.values?.[f.name];
  const common = { id, name: f.name, dataset: { controlFor: f.name } };
  switch (kind) {
    case "checkbox":
      return el("input", { ...common, type: "checkbox", checked: Boolean(start) });
    case "select": {
      const names = VALUE_LABELS[f.name] ?? {};
      const options = f.enum.map((v) => el("option", { value: v, textContent: names[v] ?? v }));
      // Optional: the service's own default unless the musician picks one.
      if (!f.required) options.unshift(el("option", { value: "", textContent: "Service default" }));
      const select = el("select", common, ...options);
      select.value = start ?? (f.required ? f.enum[0] : "");
      return select;
    }
    case "steps": {
      const values = Array.from({ length: f.maximum - f.minimum + 1 }, (_, i) => String(f.minimum + i));
      const select = el("select", common, ...(f.required ? [] : [el("option", { value: "", textContent: "Service default" })]),
        ...values.map((v) => el("option", { value: v, textContent: v })));
      select.value = start ?? "";
      return select;
    }
    case "slider": {
      const value = start ?? SLIDERS[f.name] ?? (f.minimum + f.maximum) / 2;
      return el("input", { ...common, type: "range", min: f.minimum, max: f.maximum, step: f.multipleOf ?? "any", value: String(value) });
    }
    case "number":
      return el("input", { ...common, type: "number", min: f.minimum ?? "", max: f.maximum ?? "", step: f.multipleOf ?? "any", value: start ?? "", inputMode: "decimal" });
    case "track":
      return el("input", { ...common, type: "text", autocomplete: "off", spellcheck: false, placeholder: "Pick a generated track, or paste its id", attrs: { list: "track-ids" } });
    case "textarea":
      return el("textarea", { ...common, rows: 3, value: start ?? "" });
    default:
      return el("input", { ...common, type: "text", value: start ?? "" });
  }
}

/**
 * The order fields are shown in (the description lists them alphabetically): the source, the
 * switches, what is written (required first), the choices, then the sliders; within a group, the
 * order of the page's labels.
 */
const GROUPS = { track: 0, checkbox: 1, textarea: 2, text: 2, number: 2, select: 3, steps: 3, slider: 4 };
const LABEL_ORDER = Object.keys(LABELS);
function rank(op, f) {
  const at = LABEL_ORDER.indexOf(f.name);
  return [GROUPS[widget(op, f)], f.required ? 0 : 1, at < 0 ? LABEL_ORDER.length : at];
}
const byRank = (op) => (a, b) => {
  const [x, y] = [rank(op, a), rank(op, b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** A description for people: the service's docs quote code in backticks. */
const plain = (text) => String(text ?? "").replace(/`/g, "");

function field(op, f) {
  const kind = widget(op, f);
  const id = `f-${f.name}`;
  const label = labelFor(op, f.name);
  const input = control(op, f, kind, id);
  const hint = el("p", { id: `${id}-hint`, className: "hint", textContent: plain(f.description) });
  const error = el("p", { className: "field-error", id: `err-${f.name}`, dataset: { errorFor: f.name } });
  input.setAttribute("aria-describedby", `${id}-hint err-${f.name}`);
  const labelEl = el("label", { htmlFor: id }, label);
  if (kind === "checkbox") return el("div", { className: "field check", dataset: { field: f.name } }, input, labelEl, error);
  if (f.required) labelEl.append(el("span", { className: "req", textContent: " required" }));
  if (kind === "slider") {
    const out = el("output", { htmlFor: id, className: "slider-value", textContent: Number(input.value).toFixed(2) });
    input.addEventListener("input", () => { out.textContent = Number(input.value).toFixed(2); });
    labelEl.append(out);
  }
  if (f.maxLength) {
    const count = () => { hint.textContent = `${plain(f.description)} (${input.value.length} of ${f.maxLength})`.trim(); };
    input.addEventListener("input", count);
    count();
  }
  const row = el("div", { className: "control-row" }, input);
  if (op.boost?.includes(f.name)) {
    const button = el("button", { type: "button", className: "btn ghost small boost", textContent: "✦ Boost", title: "Rewrite this style description with the service's style booster", attrs: { "aria-label": `Boost ${label}` } });
    button.addEventListener("click", () => boost(input, button));
    row.append(button);
  }
  const wide = kind === "textarea" || op.boost?.includes(f.name);
  return el("div", { className: `field${wide ? " wide" : ""}${kind === "slider" ? " slider" : ""}`, dataset: { field: f.name } }, labelEl, row, hint, error);
}

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
  fields.replaceChildren(...shown.map((f) => field(op, f)));
  const draft = state.drafts[op.name];
  for (const [name, value] of Object.entries(draft ?? {})) {
    const input = form().elements[name];
    if (!input) continue;
    if (input.type === "checkbox") input.checked = value;
    else input.value = value;
    input.dispatchEvent(new Event("input"));
  }
  $("#go").textContent = op.label;
  const credits = op.described.credits;
  $("#cost").textContent = [op.source === "upload" ? "Uses the uploaded file" : null, credits != null ? `${credits} credits` : null].filter(Boolean).join(" · ");
  refreshTrackChoices();
  updateCode();
}

function saveDraft() {
  const op = current();
  if (!op) return;
  const draft = {};
  for (const input of form().querySelectorAll("[data-control-for]")) draft[input.name] = input.type === "checkbox" ? input.checked : input.value;
  state.drafts[op.name] = draft;
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
    if (!input) continue;
    if (input.type === "checkbox") request[f.name] = input.checked;
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

function updateCode() {
  const op = current();
  if (!op) return;
  const request = collect();
  if (op.source === "upload" && !state.upload) request.uploadUrl = "<file.downloadUrl>";
  $("#code").textContent =
    `const { taskId } = await client.${op.name}(${JSON.stringify(request, null, 2)});\n` +
    `const task = await client.waitForTask(taskId, { onProgress: (t) => show(t.stage, t.tracks) });`;
}

/** The tracks of the task on show, offered as sources ("Track to extend"). */
function refreshTrackChoices() {
  const tracks = [...(state.task?.tracks.values() ?? [])];
  $("#track-ids").replaceChildren(...tracks.map((t) => el("option", { value: t.id, label: t.title ?? "" })));
}

/** Values that fit the chosen source, e.g. an extension that starts within the chosen track. */
function fitSource() {
  const op = current();
  const id = form().elements.audioId?.value.trim();
  const track = id && state.task?.tracks.get(id);
  if (!op?.fit || !track) return;
  for (const [name, value] of Object.entries(op.fit(track))) {
    const input = form().elements[name];
    if (input && value !== "") input.value = value;
  }
}

async function submit() {
  clearFieldErrors(form());
  clearFieldErrors($("#h-source").closest("section"));
  const op = current();
  const request = collect();
  const go = $("#go");
  go.disabled = true;
  go.classList.add("busy");
  try {
    // The package checks the request before anything is sent: a ValidationError names the field.
    const { taskId } = await state.client[op.name](request, callOptions());
    go.disabled = false;
    go.classList.remove("busy");
    await openTask(taskId, { op: op.name, title: request.title || null, created: true });
  } catch (error) {
    showError(error, requestErrors());
  } finally {
    go.disabled = false;
    go.classList.remove("busy");
  }
}

async function boost(input, button) {
  const content = input.value.trim() || input.placeholder;
  button.disabled = true;
  button.textContent = "Boosting…";
  try {
    const boosted = await state.client.boostStyle({ content }, callOptions());
    if (boosted.result) {
      input.value = boosted.result;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }
  } catch (error) {
    // The booster's own field is the one this button sits next to.
    const where = { roots: [form()], labels: { content: labelFor(current(), input.name) } };
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
  f.append(el("datalist", { id: "track-ids" }));
  clearErrorsOnEdit(f);
  f.addEventListener("input", (event) => {
    if (event.target.name === "audioId") fitSource();
    updateCode();
  });
  f.addEventListener("change", updateCode);
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
