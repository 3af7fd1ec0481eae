// The "Your song" panel: the task on show, followed by polling through its stages on a
// timeline; its tracks (players.js) and covers (covers.js) appear as they are made.
import { $, $$ } from "./dom.js";
import { logPolled, watchInbox } from "./callbacks.js";
import { resetCovers } from "./covers.js";
import { showError } from "./messages.js";
import { resetTracks, showTrack } from "./players.js";
import { pollSchedule } from "./service.js";
import { set, state } from "./store.js";
import { refreshCredits } from "./credits.js";

const STAGES = ["pending", "text", "first", "complete"];
const WORDS = { pending: "queued", text: "arrangement written, making audio…", first: "first track ready, finishing the rest…", complete: "done" };

function markStage(task, stage) {
  if (task.seen.has(stage)) return;
  task.seen.add(stage);
  const elapsed = ((performance.now() - task.started) / 1000).toFixed(1);
  const index = STAGES.indexOf(stage);
  for (const li of $("#timeline").children) {
    const i = STAGES.indexOf(li.dataset.stage);
    if (i < index && li.dataset.state !== "done") {
      // A reopened task started before this visit: its earlier stages happened, unwatched.
      li.dataset.state = li.dataset.state === "active" || task.reopened ? "done" : "skipped";
      if (li.dataset.state === "skipped") $("time", li).textContent = "skipped";
    }
    if (i === index) {
      li.dataset.state = stage === "complete" ? "done" : "active";
      const time = $("time", li);
      time.textContent = task.reopened && !task.live ? "" : `+${elapsed} s`;
      time.dateTime = new Date().toISOString();
    }
  }
}

function markFailed() {
  for (const li of $$("#timeline li")) if (li.dataset.state === "active") li.dataset.state = "failed";
}

function remember(task) {
  const entry = { id: task.id, op: task.op, title: task.title, at: task.at };
  set("history", [entry, ...state.history.filter((h) => h.id !== task.id)]);
}

/** A sound's tempo, key and loop switch, as its own record's request says (`param`). */
function soundOf(record) {
  try {
    const param = JSON.parse(record.param || "{}");
    if (!["soundLoop", "soundTempo", "soundKey"].some((k) => k in param)) return null;
    return { loop: param.soundLoop === true, tempo: param.soundTempo ?? null, key: param.soundKey ?? null };
  } catch {
    return null;
  }
}

/** The music record as polled: its stage on the timeline, its tracks as players. */
function showRecord(task, record) {
  if (!task.op && record.operationType) task.op = record.operationType;
  task.sound = soundOf(record) ?? task.sound;
  if (!task.title && record.tracks?.[0]?.title) {
    task.title = record.tracks[0].title;
    if (state.history.some((h) => h.id === task.id)) remember(task);
  }
  if (record.stage && STAGES.includes(record.stage)) markStage(task, record.stage);
  $("#task-state").textContent = WORDS[record.stage] ?? record.state ?? "";
  for (const track of record.tracks ?? []) {
    task.tracks.set(track.id, { ...task.tracks.get(track.id), ...track });
    showTrack(task, task.tracks.get(track.id));
  }
  set("task", task);
  if (record.stage === "complete") $("#extras").hidden = false;
}

/**
 * Shows a music task and follows it to its end: one just created (`created`), or one of this
 * browser's earlier tasks reopened by id. Resolves when the task ends or another one is shown.
 * `sound`: a sound's `{ loop, tempo, key }` as requested, until its record says.
 */
export async function openTask(taskId, { op = null, title = null, created = false, sound = null } = {}) {
  state.task?.abort.abort();
  const task = {
    id: taskId, op, title, sound, at: new Date().toISOString(), started: performance.now(), abort: new AbortController(),
    tracks: new Map(), seen: new Set(), reopened: !created, live: created,
  };
  set("task", task);
  $("#task-empty").hidden = true;
  $("#task").hidden = false;
  $("#task-id").textContent = taskId;
  $("#extras").hidden = true;
  resetTracks();
  resetCovers();
  for (const li of $("#timeline").children) {
    li.dataset.state = "";
    $("time", li).textContent = "";
  }
  if (created) {
    markStage(task, "pending");
    remember(task);
    logPolled("music", `created ${taskId.slice(0, 8)}… by ${op}`);
    refreshCredits();
    watchInbox();
    $("#task-card").scrollIntoView({ block: "start", behavior: "smooth" });
  }
  $("#task-state").textContent = "waiting for the service…";
  try {
    const final = await state.client.waitForTask(taskId, {
      signal: task.abort.signal,
      ...pollSchedule(),
      // Called with the record itself, once per state change (WaitOptions.onProgress).
      onProgress: (record) => {
        if (state.task !== task) return;
        // A stage seen while this page watched has a time worth showing.
        if (task.seen.size > 0) task.live = true;
        logPolled("music", `${record.stage} (${record.state})`);
        showRecord(task, record);
        if (!created && task.seen.size === 1) remember(task);
      },
    });
    if (state.task === task) showRecord(task, final);
  } catch (error) {
    if (state.task !== task) return;
    if (error.kind === "task_failed") {
      markFailed();
      $("#task-state").textContent = `failed: ${error.errorMessage || error.taskStatus || error.message}`;
      logPolled("music", `failed (${error.taskStatus ?? "error"})`);
      if (!created) remember(task);
    } else {
      $("#task-state").textContent = "could not be followed";
    }
    showError(error);
  }
}
