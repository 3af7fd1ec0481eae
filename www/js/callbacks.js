// "Under the hood": the states the client polled, next to the callbacks the service POSTed to
// the callback URL (read back from the emulator's inbox). Both lists follow their newest entry.
import { parseCallback } from "../pkg/index.js";
import { $, appendToLog, clockTime, el } from "./dom.js";
import { state } from "./store.js";

let timer = null;
let seen = 0;
let until = 0;

export function logPolled(family, text) {
  appendToLog($("#polled"), el("li", {}, el("time", { textContent: clockTime() }), el("span", { className: `tag fam-${family}`, textContent: family }), ` ${text}`));
}

/** Reads the inbox for a while after each new task: callbacks arrive as its stages pass. */
export function watchInbox() {
  until = Date.now() + 120000;
  if (!timer) poll();
}

async function poll() {
  timer = null;
  const note = $("#callbacks-note");
  try {
    const res = await fetch(state.settings.callBackUrl, { cache: "no-store" });
    if (res.ok) {
      const { items = [] } = await res.json();
      for (const item of items.slice(seen)) show(item);
      seen = Math.max(seen, items.length);
      note.textContent = "";
    } else {
      note.textContent = `The callback URL answered ${res.status}: this panel reads the emulator's inbox.`;
    }
  } catch {
    note.textContent = "The callback URL cannot be read from this page (the real service posts to your server).";
  }
  if (Date.now() < until) timer = setTimeout(poll, 1000);
}

/** The callback as the package reads it (`parseCallback`); shown raw when it cannot. */
function summary(body) {
  try {
    const event = parseCallback(body);
    return { family: event.family, what: event.stage, taskId: event.taskId };
  } catch {
    return { family: "other", what: body?.msg ?? "", taskId: null };
  }
}

function show(item) {
  let body = item.body;
  if (typeof body === "string") {
    try { body = JSON.parse(body); } catch { /* keep the text */ }
  }
  const { family, what, taskId } = summary(body);
  appendToLog($("#callbacks"), el("li", {},
    el("time", { textContent: clockTime(item.at ?? Date.now()) }),
    el("span", { className: `tag fam-${family}`, textContent: family }),
    ` ${what}${body?.code != null ? ` · code ${body.code}` : ""}${taskId ? ` · ${String(taskId).slice(0, 8)}…` : ""}`,
    el("details", {}, el("summary", { textContent: "body" }), el("pre", { textContent: JSON.stringify(body, null, 2) }))));
  $("#cb-count").textContent = String($("#callbacks").children.length);
}
