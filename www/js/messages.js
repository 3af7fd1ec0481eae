// What the page says when something goes wrong: the package's own error (its kind, field and
// message) in the words a musician sees on the page, next to the field it is about, in the tool it
// came from, or as a toast that closes by itself.
import { $, el } from "./dom.js";
import { state } from "./store.js";

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

/** What the page can do about some kinds of error, as buttons beside the message; set by app.js. */
const actions = [];
export function offerAction(when, label, run) {
  actions.push({ when, label, run });
}

/** How long a toast stays: long enough to read, and it goes by itself. */
const TOAST_MS = 8000;

/**
 * The page's own words for refusals whose package wording does not fit the page: the method that
 * failed opens the package's message ("generatePersona failed with code 409 ...").
 */
function pageWords(error) {
  const method = /^([a-z]\w*) failed/.exec(String(error?.message ?? ""))?.[1];
  if (error?.kind === "conflict" && method === "generatePersona") {
    return "This track already has a persona: the service makes one per track. Use the persona made before, or pick the other track.";
  }
  if (error?.kind === "unauthorized" && state.settings?.companionUrl) {
    return "The companion did not accept this page's session, so it sent nothing to the service. Sign in again (here: reload the page), then retry.";
  }
  return null;
}

/**
 * A refusal of the service that names a field of the form on show: `{ field, message, rule }`, the
 * message from the field's name on ("`infillEndS` must be within the track..."), or null.
 */
function refusedField(error, roots) {
  if (error?.kind !== "invalid") return null;
  const text = String(error.message ?? "");
  for (const m of text.matchAll(/`([A-Za-z_]\w*)`/g)) {
    if (!find(roots, `[data-error-for="${CSS.escape(m[1])}"]`)) continue;
    const rule = /\(rule: (\w+)\)/.exec(text)?.[1] ?? null;
    const message = text.slice(m.index).replace(/\s*\(rule: \w+\)/, "").replace(/\.?\s*Fix the request\.?$/, "");
    return { kind: "validation", field: m[1], rule, message };
  }
  return null;
}

/** The message of `error` as a box: what happened, what to do, its code and request id, actions. */
function errorBox(error, where, className, onDone) {
  const lines = [pageWords(error) ?? humanize(error?.message ?? String(error), where.labels)];
  if (error?.attempts > 1) lines.push(`The page tried ${error.attempts} times.`);
  if (error?.retryable) lines.push("Nothing is wrong with your request: try again in a moment.");
  const detail = [error?.code != null ? `code ${error.code}` : null, error?.requestId ? `request ${error.requestId}` : null]
    .filter(Boolean).join(" · ");
  const box = el("div", { className: `alert ${className} kind-${error?.kind ?? "unknown"}`, attrs: { role: "alert" } },
    el("strong", { textContent: sentence(error?.kind) }),
    ...lines.map((text) => el("p", { textContent: text })),
    detail ? el("p", { className: "small muted", textContent: detail }) : null);
  const buttons = actions.filter((a) => a.when(error)).map((a) => {
    const button = el("button", { type: "button", className: "btn small", textContent: a.label });
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await a.run(error);
        onDone();
      } catch (failure) {
        button.disabled = false;
        showError(failure, where);
      }
    });
    return button;
  });
  if (buttons.length) box.append(el("div", { className: "row alert-actions" }, ...buttons));
  return box;
}

/**
 * Shows what went wrong, where it is about: a `ValidationError`, or a refusal of the service that
 * names a field (a 422 quoting it), next to that field when one of `where.roots` has a place for
 * it; else in `where.inline` (a tool's own place for its errors: the studio is never covered); else
 * as a toast that closes by itself. `where.labels` names the fields of that form.
 */
export function showError(error, where = {}) {
  if (error?.kind === "aborted") return;
  // Every refusal of a request at once (check.js).
  if (Array.isArray(error?.all)) {
    showFieldErrors(error.all, where);
    return;
  }
  if (error?.kind === "validation" && showFieldError(error, where)) return;
  const named = refusedField(error, where.roots ?? [document]);
  if (named && showFieldError(named, where)) return;
  if (where.inline) {
    const box = errorBox(error, where, "inline", () => box.remove());
    where.inline.replaceChildren(box);
    return;
  }
  const close = el("button", { type: "button", className: "toast-close", textContent: "×", attrs: { "aria-label": "Dismiss" } });
  const toast = errorBox(error, where, "toast", () => toast.remove());
  toast.append(close);
  close.addEventListener("click", () => toast.remove());
  $("#toasts").append(toast);
  setTimeout(() => toast.remove(), TOAST_MS);
}

/**
 * The place for the messages about `anchor` (a button's row, a status line), right after it, made
 * on first use: an error shows where it happened, and no overlay covers the page.
 */
export function alertPlace(anchor) {
  const next = anchor.nextElementSibling;
  if (next?.classList.contains("alert-place")) return next;
  const place = el("div", { className: "alert-place" });
  anchor.after(place);
  return place;
}

const find = (roots, sel) => roots.map((root) => root.querySelector(sel)).find(Boolean) ?? null;

/**
 * Shows a `ValidationError` next to its field (an element with `data-error-for` its name, in one
 * of `roots`) and marks its control (`data-control-for`); false when there is no such place.
 * `focus: false` leaves the focus where it is (for the second and later errors of a form).
 */
export function showFieldError(error, { roots = [document], labels = {} } = {}, { focus = true } = {}) {
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
    if (focus) {
      control.scrollIntoView({ block: "center" });
      control.focus({ preventScroll: true });
    }
  }
  return true;
}

/**
 * Shows every refusal of `errors` next to its field, the first one focused; the ones without a
 * place are shown as `showError` would. Returns how many were placed next to their field.
 */
function showFieldErrors(errors, where = {}) {
  const roots = where.roots ?? [document];
  const slotOf = (error) => find(roots, `[data-error-for="${CSS.escape(String(error.field ?? ""))}"]`);
  // In the order of the page, so that the first one focused is the first one read.
  const ordered = [...errors].sort((a, b) => {
    const [x, y] = [slotOf(a), slotOf(b)];
    if (!x || !y) return x ? -1 : y ? 1 : 0;
    return x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  });
  let placed = 0;
  for (const error of ordered) {
    if (showFieldError(error, where, { focus: placed === 0 })) placed++;
    else showError(error, where);
  }
  return placed;
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
