// "Under the hood": the states the client got, next to the callbacks the service POSTed. Talking to
// the emulator directly, the client polls and the callbacks are read back from the emulator's
// inbox; through the demo's companion, the companion receives the callbacks (listed by the demo's
// own route, with what the companion did with each) and pushes each state to the page. Both lists
// follow their newest entry.
// The full build (`tunesmith/full`): this panel reads the raw callback bodies in the page, which the
// browser build leaves to servers; the page imports every name from it, since a page loads one build.
import { parseCallback } from "../pkg/full.js";
import { refreshCredits } from "./credits.js";
import { $, appendToLog, clockTime, el } from "./dom.js";
import { state } from "./store.js";

let timer = null;
/** How far the callbacks were read: a count of inbox items, or the companion's last `seq`. */
let seen = 0;
let until = 0;
let source = null;

/** Through the demo's companion: its list of the callbacks it received. */
const companionList = () => (state.settings?.demoUrl ? `${state.settings.demoUrl}/callbacks` : null);

/** How the client learns a task's states: pushed by the companion, or polled. */
const stateSource = () => (state.settings?.companionUrl ? "pushed" : "polled");

/** The column's heading and the panel's note, in the words of the way the page runs. */
export function describePanel() {
  const pushed = stateSource() === "pushed";
  $("#states-title").textContent = pushed ? "Pushed states" : "Polled states";
  $("#events-note").textContent = pushed
    ? "The states the companion pushed to this page, next to the callbacks the service POSTed to the companion."
    : "What the client saw by polling, next to what the service POSTed to the callback URL.";
}

function entry(family, text, how) {
  return el("li", {},
    el("time", { textContent: clockTime() }),
    el("span", { className: `tag fam-${family}`, textContent: family }),
    ` ${text}`,
    how ? el("span", { className: "how small muted", textContent: ` · ${how}` }) : null);
}

/** Words for the integer `successFlag` of the families that have one (the others write words). */
const FLAGS = {
  cover: { 0: "PENDING", 1: "SUCCESS", 2: "GENERATING", 3: "FAILED" },
  midi: { 0: "PENDING", 1: "SUCCESS", 2: "CREATE_TASK_FAILED", 3: "GENERATE_MIDI_FAILED" },
};

/**
 * A family's record as the panel lists it, from its declared fields, polled or pushed alike: the
 * normalized `state`, then the service's own word for it (a music task's stage, a recovery's code,
 * the `successFlag` of the others, a lyrics task's `status`). A field the record lacks is left out,
 * never printed as "undefined".
 */
export function stateOf(family, record) {
  const state = record?.state ?? "unknown";
  if (family === "music") return record?.stage ? `${record.stage} (${state})` : state;
  let word = null;
  if (family === "recovery") word = record?.code != null ? `code ${record.code}` : null;
  else if (record?.successFlag != null) word = `successFlag ${FLAGS[family]?.[record.successFlag] ?? record.successFlag}`;
  else if (record?.status != null) word = `status ${record.status}`;
  return word ? `${state} (${word})` : state;
}

/** A state the client got (`onProgress`), labelled with how it came (`how`: "queried" for a query). */
export function logState(family, text, how = stateSource()) {
  appendToLog($("#states"), entry(family, text, how));
}

/**
 * A task was created: listed, the credits it cost shown, and the callbacks read for a while (they
 * arrive as its stages pass).
 */
export function logCreated(family, text) {
  appendToLog($("#states"), entry(family, `created ${text}`, null));
  refreshCredits();
  until = Date.now() + 120000;
  if (!timer) poll();
}

async function poll() {
  timer = null;
  const note = $("#callbacks-note");
  const list = companionList();
  // Settings changed the way the page runs: start over.
  if ((list ?? state.settings?.callBackUrl) !== source) {
    source = list ?? state.settings?.callBackUrl;
    seen = 0;
  }
  try {
    const res = await fetch(list ? `${list}?since=${seen}` : state.settings.callBackUrl, { cache: "no-store", credentials: list ? "include" : "same-origin" });
    if (res.ok) {
      const { items = [] } = await res.json();
      if (list) {
        for (const item of items) show(item);
        seen = Math.max(seen, ...items.map((i) => i.seq));
      } else {
        for (const item of items.slice(seen)) show(item);
        seen = Math.max(seen, items.length);
      }
      note.textContent = "";
    } else {
      note.textContent = list
        ? `The companion's list of callbacks answered ${res.status}.`
        : `The callback URL answered ${res.status}: this panel reads the emulator's inbox.`;
    }
  } catch {
    note.textContent = list
      ? "The companion's list of callbacks cannot be read: is the demo still running?"
      : "The callback URL cannot be read from this page (the real service posts to your server).";
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

/** What the companion did with a callback it received. */
const OUTCOMES = { pushed: "pushed to this page", duplicate: "a repeat: not pushed again", refused: "refused" };

function show(item) {
  let body = item.body;
  if (typeof body === "string") {
    try { body = JSON.parse(body); } catch { /* keep the text */ }
  }
  const { family, what, taskId } = summary(body);
  const outcome = item.outcome ? el("span", { className: `outcome small outcome-${item.outcome}`, textContent: ` · ${OUTCOMES[item.outcome] ?? item.outcome}` }) : null;
  appendToLog($("#callbacks"), el("li", { dataset: { family, stage: what ?? "", ...(item.outcome ? { outcome: item.outcome } : {}) } },
    el("time", { textContent: clockTime(item.at ?? Date.now()) }),
    el("span", { className: `tag fam-${family}`, textContent: family }),
    ` ${what}${body?.code != null ? ` · code ${body.code}` : ""}${taskId ? ` · ${String(taskId).slice(0, 8)}…` : ""}`,
    outcome,
    el("details", {}, el("summary", { textContent: "body" }), el("pre", { textContent: JSON.stringify(body, null, 2) }))));
  $("#cb-count").textContent = String($("#callbacks").children.length);
}
