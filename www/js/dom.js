// DOM helpers shared by the panels: query, build elements, keep a log scrolled to its newest entry.

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

/**
 * `el("input", { name: "x", attrs: { list: "ids" } }, ...children)`: properties are assigned,
 * `attrs` are set as attributes (some, like an input's `list`, are read-only properties).
 */
export function el(tag, { attrs = {}, dataset = {}, ...props } = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  for (const [name, value] of Object.entries(attrs)) {
    if (value != null && value !== false) node.setAttribute(name, value === true ? "" : String(value));
  }
  Object.assign(node.dataset, dataset);
  for (const child of children) if (child != null) node.append(child);
  return node;
}

/** Appends to a scrolling log and keeps its newest entry in view, without scrolling the page. */
export function appendToLog(list, item) {
  list.append(item);
  list.scrollTop = list.scrollHeight;
}

export const formatBytes = (n) =>
  n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;

/** m:ss, whole seconds cut as a media player's controls cut them (25.6 s is 0:25 in both). */
export const formatDuration = (s) =>
  Number.isFinite(s) ? `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, "0")}` : "–";

/** At most `max` characters of `text`, cut after a whole word (with an ellipsis), never inside one. */
export function shortTitle(text, max) {
  const clean = String(text ?? "").replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max).replace(/\s+\S*$/, "").replace(/[\s,;:.–-]+$/, "");
  return `${cut || clean.slice(0, max - 1)}…`;
}

export const clockTime = (at = Date.now()) =>
  new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });

/** The visible label of a form control: the text its `<label>` starts with. */
export const labelText = (control) => control?.labels?.[0]?.childNodes[0]?.textContent.trim() ?? control?.name ?? "";

/** `{ name: label }` for the controls of `root` that carry `data-control-for`. */
export function fieldLabels(root) {
  const out = {};
  for (const control of root.querySelectorAll("[data-control-for]")) {
    out[control.dataset.controlFor] = control.dataset.label ?? labelText(control);
  }
  return out;
}
