// The "Your song" panel: the task on show, followed through its stages on a timeline (polled, or
// pushed by the companion); its tracks (players.js) and covers (covers.js) appear as they are made.
import { $, $$ } from "./dom.js";
import { logCreated, logState, stateOf } from "./callbacks.js";
import { resetCovers, showCovers } from "./covers.js";
import { alertPlace, showError } from "./messages.js";
import { resetTracks, showTrack } from "./players.js";
import { pollSchedule } from "./service.js";
import { kept, set, state } from "./store.js";

const STAGES = ["pending", "text", "first", "complete"];
const WORDS = { pending: "queued", text: "arrangement written, making audio…", first: "first track ready, finishing the rest…", complete: "done" };

/**
 * Marks `stage` reached on the timeline. Its time, counted from the task's creation, shows only
 * when this page saw the stage come: a reopened task's earlier stages passed before this visit.
 */
function markStage(task, stage) {
  if (task.seen.has(stage)) return;
  task.seen.add(stage);
  const index = STAGES.indexOf(stage);
  const watched = index > task.before;
  const since = task.createdAt != null ? Date.now() - task.createdAt : performance.now() - task.started;
  for (const li of $("#timeline").children) {
    const i = STAGES.indexOf(li.dataset.stage);
    if (i < index && li.dataset.state !== "done") {
      // Passed before this visit, or seen come: done; jumped over while watched: skipped.
      li.dataset.state = li.dataset.state === "active" || i <= task.before ? "done" : "skipped";
      if (li.dataset.state === "skipped") $("time", li).textContent = "skipped";
    }
    if (i === index) {
      li.dataset.state = stage === "complete" ? "done" : "active";
      const time = $("time", li);
      time.textContent = watched ? `+${(since / 1000).toFixed(1)} s` : "";
      time.title = watched ? "seconds since the task was created" : "reached before this page opened the task";
      time.dateTime = new Date().toISOString();
    }
  }
}

function markFailed() {
  for (const li of $$("#timeline li")) if (li.dataset.state === "active") li.dataset.state = "failed";
}

function remember(task) {
  // An entry keeps the time its task was made, and what was made for it, whenever it is reopened.
  const old = kept(task.id);
  const entry = { ...old, id: task.id, op: task.op, title: task.title, at: old?.at ?? task.at };
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

/** The request a record was made from (its JSON-encoded `param`), or null. */
function requestOf(record) {
  try {
    const param = JSON.parse(record.param || "null");
    return param && typeof param === "object" ? param : null;
  } catch {
    return null;
  }
}

/** The music record as polled: its stage on the timeline, its tracks as players. */
function showRecord(task, record) {
  if (!task.op && record.operationType) task.op = record.operationType;
  task.sound = soundOf(record) ?? task.sound;
  task.request = requestOf(record) ?? task.request;
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
 * `sound`: a sound's `{ loop, tempo, key }` as requested, until its record says; `request`: the
 * request the task was made from, until its record's `param` says.
 */
export async function openTask(taskId, { op = null, title = null, created = false, sound = null, request = null } = {}) {
  state.task?.abort.abort();
  const task = {
    id: taskId, op, title, sound, request, at: new Date().toISOString(), started: performance.now(), abort: new AbortController(),
    tracks: new Map(), seen: new Set(),
    // When the task was made (epoch ms; from its record when reopened), and the last stage it had
    // reached before this page watched it (-1: none, for a task just created).
    createdAt: created ? Date.now() : null, before: -1,
  };
  set("task", task);
  $("#task-empty").hidden = true;
  $("#task").hidden = false;
  $("#task-id").textContent = taskId;
  $("#extras").hidden = true;
  resetTracks();
  resetCovers();
  // Covers made for it earlier are shown, not offered (and charged) again; its WAV files too (players.js).
  if (kept(taskId)?.covers?.length) showCovers(kept(taskId).covers, { earlier: true });
  for (const li of $("#timeline").children) {
    li.dataset.state = "";
    $("time", li).textContent = "";
  }
  if (created) {
    markStage(task, "pending");
    remember(task);
    logCreated("music", `${taskId.slice(0, 8)}… by ${op}`);
    $("#task-card").scrollIntoView({ block: "start", behavior: "smooth" });
  }
  $("#task-state").textContent = "waiting for the service…";
  const alerts = alertPlace($("#timeline"));
  alerts.replaceChildren();
  try {
    if (!created) {
      // Where the task stands now: its stages so far passed before this visit, and its record
      // says when it was made.
      const record = await state.client.getTask({ taskId }, { signal: task.abort.signal });
      if (state.task !== task) return;
      const made = Date.parse(record.createTime ?? "");
      if (Number.isFinite(made)) {
        task.createdAt = made;
        task.at = new Date(made).toISOString();
      }
      task.before = record.state === "succeeded" || record.state === "failed" ? STAGES.length : STAGES.indexOf(record.stage);
      logState("music", stateOf("music", record), "queried");
      showRecord(task, record);
      remember(task);
      if (record.state === "failed") throw Object.assign(new Error(record.errorMessage || "the task failed"), { kind: "task_failed", taskStatus: record.status, errorMessage: record.errorMessage });
      if (record.state === "succeeded") return;
    }
    const final = await state.client.waitForTask(taskId, {
      signal: task.abort.signal,
      ...pollSchedule(),
      // Called with the record itself, once per state change (WaitOptions.onProgress).
      onProgress: (record) => {
        if (state.task !== task) return;
        logState("music", stateOf("music", record));
        showRecord(task, record);
      },
    });
    if (state.task === task) showRecord(task, final);
  } catch (error) {
    if (state.task !== task) return;
    if (error.kind === "task_failed") {
      markFailed();
      $("#task-state").textContent = `failed: ${error.errorMessage || error.taskStatus || error.message}`;
      logState("music", `failed (${error.taskStatus ?? "error"})`);
    } else {
      $("#task-state").textContent = "could not be followed";
    }
    showError(error, { inline: alerts });
  }
}
