// What the page says when something goes wrong: the package's own error (its kind, field and
// message) in the words a musician sees on the page, next to the field or as a toast.
import { $, el } from "./dom.js";

/** Client methods → the names the page gives them ("Add instrumental", "Style boost"). */
const methodLabels = new Map();

export function nameMethods(entries) {
  for (const [name, label] of Object.entries(entries)) methodLabels.set(name, label);
}

/**
 * The package's message with code names replaced by labels: `fields` are those of the form the
 * error is about (the same name may be two things: `uploadUrl` is the "Upload URL" in Settings
 * and the "Audio file" of a request).
 */
export function humanize(message, fields = {}) {
  const label = (name) => fields[name] ?? methodLabels.get(name) ?? name;
  return String(message ?? "")
    .replace(/`([^`]+)`/g, (_, name) => label(name))
    .replace(/\b[a-z]+[A-Z]\w*\b/g, label)
    // "generate failed with code 429": a one-word method name opens the package's API messages.
    .replace(/^[a-z]\w*\b/, (word) => methodLabels.get(word) ?? word);
}

const sentence = (kind) => String(kind ?? "error").replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

/** What the page can do about some kinds of error, as buttons on the toast; set by app.js. */
const actions = [];
export function offerAction(when, label, run) {
  actions.push({ when, label, run });
}

/**
 * Shows what went wrong: a `ValidationError` next to its field when one of `where.roots` has a
 * place for it, anything else as a toast. `where.labels` names the fields of that form.
 */
export function showError(error, where = {}) {
  if (error?.kind === "aborted") return;
  if (error?.kind === "validation" && showFieldError(error, where)) return;
  const lines = [humanize(error?.message ?? String(error), where.labels)];
  if (error?.attempts > 1) lines.push(`The page tried ${error.attempts} times.`);
  if (error?.retryable) lines.push("Nothing is wrong with your request: try again in a moment.");
  const detail = [error?.code != null ? `code ${error.code}` : null, error?.requestId ? `request ${error.requestId}` : null]
    .filter(Boolean).join(" · ");
  const close = el("button", { type: "button", className: "toast-close", textContent: "×", attrs: { "aria-label": "Dismiss" } });
  const toast = el("div", { className: `toast kind-${error?.kind ?? "unknown"}` },
    el("strong", { textContent: sentence(error?.kind) }),
    ...lines.map((text) => el("p", { textContent: text })),
    detail ? el("p", { className: "small muted", textContent: detail }) : null,
    close);
  const buttons = actions.filter((a) => a.when(error)).map((a) => {
    const button = el("button", { type: "button", className: "btn small", textContent: a.label });
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await a.run(error);
        toast.remove();
      } catch (failure) {
        button.disabled = false;
        showError(failure);
      }
    });
    return button;
  });
  if (buttons.length) toast.append(el("div", { className: "row toast-actions" }, ...buttons));
  close.addEventListener("click", () => toast.remove());
  $("#toasts").append(toast);
  setTimeout(() => toast.remove(), 15000);
}

const find = (roots, sel) => roots.map((root) => root.querySelector(sel)).find(Boolean) ?? null;

/**
 * Shows a `ValidationError` next to its field (an element with `data-error-for` its name, in one
 * of `roots`) and marks its control (`data-control-for`); false when there is no such place.
 */
export function showFieldError(error, { roots = [document], labels = {} } = {}) {
  const field = String(error.field ?? "");
  const slot = find(roots, `[data-error-for="${CSS.escape(field)}"]`);
  if (!slot) return false;
  slot.textContent = humanize(error.message, labels);
  // The package's rule (`range`, `required`...), for tools and tests that tell refusals apart.
  if (error.rule) slot.dataset.rule = error.rule;
  else delete slot.dataset.rule;
  const control = find(roots, `[data-control-for="${CSS.escape(field)}"]`);
  if (control) {
    control.setAttribute("aria-invalid", "true");
    control.scrollIntoView({ block: "center" });
    control.focus({ preventScroll: true });
  }
  return true;
}

export function clearFieldError(field, root = document) {
  const slot = root.querySelector(`[data-error-for="${CSS.escape(field)}"]`);
  if (slot) slot.textContent = "";
  root.querySelector(`[data-control-for="${CSS.escape(field)}"]`)?.removeAttribute("aria-invalid");
}

export function clearFieldErrors(root = document) {
  for (const node of root.querySelectorAll("[data-error-for]")) node.textContent = "";
  for (const node of root.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
}

/** Errors of a form go away as soon as the musician edits the field they are about. */
export function clearErrorsOnEdit(form) {
  const clear = (event) => {
    const field = event.target?.dataset?.controlFor;
    if (field) clearFieldError(field, form);
  };
  form.addEventListener("input", clear);
  form.addEventListener("change", clear);
}
