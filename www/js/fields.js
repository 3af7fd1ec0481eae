// One field of an operation form, built from its schema in the service's description: the
// widget its type and range call for, its label, its docs as a hint, a slot for its error.
import { el } from "./dom.js";
import { LABELS, SLIDERS, VALUE_LABELS } from "./operations.js";

const spaced = (name) => name.replace(/([A-Z])/g, " $1").replace(/^./, (c) => c.toUpperCase());
export const labelFor = (op, name) => op.labels?.[name] ?? LABELS[name] ?? spaced(name);

/** The widget a field's schema calls for. */
function widget(op, f) {
  if (op.source === "track" && f.name === "audioId") return "track";
  if (f.type === "boolean") return "checkbox";
  if (f.type === "array") return "list";
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
      // The tracks of the song on show, by title and length (forms.js fills them in).
      return el("select", common);
    case "textarea":
      return el("textarea", { ...common, rows: 3, value: start ?? "" });
    case "list":
      // A list of URLs, one a line (forms.js sends them as an array).
      return el("textarea", { ...common, rows: 2, value: start ?? "", placeholder: "https://…  (one URL a line)", dataset: { ...common.dataset, list: "" } });
    default:
      return el("input", { ...common, type: "text", value: start ?? "" });
  }
}

/**
 * The order fields are shown in (the description lists them alphabetically): the source, the
 * switches, what is written (required first), the choices, then the sliders; within a group, the
 * order of the page's labels.
 */
const GROUPS = { track: 0, checkbox: 1, textarea: 2, text: 2, number: 2, list: 2, select: 3, steps: 3, slider: 4 };
const LABEL_ORDER = Object.keys(LABELS);
function rank(op, f) {
  const at = LABEL_ORDER.indexOf(f.name);
  return [GROUPS[widget(op, f)], f.required ? 0 : 1, at < 0 ? LABEL_ORDER.length : at];
}
export const byRank = (op) => (a, b) => {
  const [x, y] = [rank(op, a), rank(op, b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** A description for people: the service's docs quote code, and name other fields by their code names. */
const plain = (op, text) => String(text ?? "").replace(/`/g, "").replace(/\b[a-z]+[A-Z]\w*\b/g, (name) => labelFor(op, name));

/**
 * The field of `f` in `op`'s form; `onBoost(input, button)` runs its style-boost button.
 * `prefix` keeps ids unique when several forms on the page show a field of the same name.
 */
export function field(op, f, onBoost, prefix = "") {
  const kind = widget(op, f);
  const id = `${prefix}f-${f.name}`;
  const errId = `${prefix}err-${f.name}`;
  const label = labelFor(op, f.name);
  const input = control(op, f, kind, id);
  // Messages name the field by its label without the label's aside in words ("Custom mode", not the
  // whole "Custom mode (style and title are mine, ...)"); a unit stays ("Until (s)").
  const short = label.replace(/\s*\([^()]*\s[^()]*\)\s*$/, "");
  if (short && short !== label) input.dataset.label = short;
  const hint = el("p", { id: `${id}-hint`, className: "hint", textContent: plain(op, f.description) });
  const error = el("p", { className: "field-error", id: errId, dataset: { errorFor: f.name } });
  input.setAttribute("aria-describedby", `${id}-hint ${errId}`);
  const labelEl = el("label", { htmlFor: id }, label);
  if (kind === "checkbox") return el("div", { className: "field check", dataset: { field: f.name } }, input, labelEl, error);
  if (f.required) labelEl.append(el("span", { className: "req", textContent: " required" }));
  if (kind === "slider") {
    const out = el("output", { htmlFor: id, className: "slider-value", textContent: Number(input.value).toFixed(2) });
    input.addEventListener("input", () => { out.textContent = Number(input.value).toFixed(2); });
    labelEl.append(out);
  }
  if (f.maxLength) {
    const count = () => { hint.textContent = `${plain(op, f.description)} (${input.value.length} of ${f.maxLength})`.trim(); };
    input.addEventListener("input", count);
    count();
  }
  const row = el("div", { className: "control-row" }, input);
  if (op.boost?.includes(f.name)) {
    const button = el("button", { type: "button", className: "btn ghost small boost", textContent: "✦ Boost", title: "Rewrite this style description with the service's style booster", attrs: { "aria-label": `Boost ${label}` } });
    button.addEventListener("click", () => onBoost(input, button));
    row.append(button);
  }
  const wide = kind === "textarea" || kind === "list" || kind === "track" || op.boost?.includes(f.name);
  return el("div", { className: `field${wide ? " wide" : ""}${kind === "slider" ? " slider" : ""}`, dataset: { field: f.name } }, labelEl, row, hint, error);
}
