// "Your tasks": the music tasks made in this browser (their ids kept in localStorage, so they
// survive a new task and a reload), each one click from being shown again; or any task by id.
import { $, el } from "./dom.js";
import { clearFieldErrors, showFieldError } from "./messages.js";
import { METHODS, OPERATIONS } from "./operations.js";
import { on, set, state } from "./store.js";
import { openTask } from "./task.js";

const KEY = "tunesmith-demo.tasks";
/** Enough to find last week's song; older entries fall off the end. */
const KEEP = 50;

function load() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(list) ? list.filter((h) => typeof h?.id === "string") : [];
  } catch {
    return [];
  }
}

function save(history) {
  try {
    localStorage.setItem(KEY, JSON.stringify(history.slice(0, KEEP)));
  } catch {
    // Private windows may refuse storage: the list still lasts for this visit.
  }
}

function render(history) {
  const list = $("#history");
  list.replaceChildren(...history.map((h) => {
    const when = new Date(h.at).toLocaleString(undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
    const button = el("button", { type: "button", className: "btn small", textContent: "Open", attrs: { "aria-label": `Open ${h.title || h.id}` } });
    button.addEventListener("click", () => openTask(h.id, { op: h.op, title: h.title }));
    return el("li", { dataset: { id: h.id } },
      el("span", { className: "h-title", textContent: h.title || "Untitled" }),
      el("span", { className: "small muted", textContent: [OPERATIONS.find((o) => o.name === h.op)?.label ?? METHODS[h.op] ?? h.op ?? "Task", when].join(" · ") }),
      el("code", { className: "small", textContent: h.id.slice(0, 8) }),
      button);
  }));
  $("#history-empty").hidden = history.length > 0;
}

export function initHistory() {
  on("history", (history) => {
    save(history);
    render(history);
  });
  set("history", load());
  const form = $("#open-form");
  form.addEventListener("input", () => clearFieldErrors(form));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearFieldErrors(form);
    const id = form.elements.taskId.value.trim();
    if (!id) {
      showFieldError({ field: "taskId", message: "Paste the id of a task first (it looks like 3f2a…)." }, { roots: [form] });
      return;
    }
    openTask(id);
  });
}
