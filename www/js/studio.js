// The studio (step 5): what a musician does with a song once it exists, one tool per module
// (stems.js, midi.js, replace.js, karaoke.js, video.js, persona.js, sounds.js, mashup.js,
// recovery.js). Shared here: the track the tools work on (one of the song on show), each tool's
// fields built from the service's description like the operation forms, the busy/error handling
// every tool's button needs (every refusal at once, errors inside the tool), and a note beside a
// tool when the chosen track is too short for it.
import { $, el, fieldLabels, formatDuration } from "./dom.js";
import { field } from "./fields.js";
import { checkRequest } from "./check.js";
import { alertPlace, clearErrorsOnEdit, clearFieldErrors, showError } from "./messages.js";
import { creditsText, describeOperation } from "./service.js";
import { on, state } from "./store.js";

const picker = () => $("#studio-track");
const sourceBox = () => $("#studio-source");

/**
 * The track the tools work on: `{ taskId, audioId, track }`. The ids are absent when there is
 * none: a request without them is refused (at the picker) before anything is sent.
 */
export function source() {
  const task = state.task;
  const audioId = picker().value || undefined;
  const track = (audioId && task?.tracks.get(audioId)) || null;
  return { taskId: track ? task.id : undefined, audioId: track ? audioId : undefined, track, task };
}

/** The picker's words when no track is chosen (the package would say `taskId` is required). */
const NO_TRACK = "Pick a track first: make a song in step 2, or open one from Your tasks.";

/**
 * Every refusal of a tool's request at once, before anything is sent; a missing track is one
 * message at the track picker, not one per id.
 */
export async function checkTool(method, request, described = describeOperation(state.service, method)) {
  try {
    await checkRequest(method, request, described);
  } catch (error) {
    if (!error.all) throw error;
    const ids = error.all.filter((e) => e.field === "taskId" || e.field === "audioId");
    if (ids.length && !source().track) {
      error.all = [{ kind: "validation", field: "audioId", rule: "required", message: NO_TRACK }, ...error.all.filter((e) => !ids.includes(e))];
    }
    throw error;
  }
}

/** The playable audio of a track: the finished file, else its stream. */
export const audioOf = (track) => track?.audioUrl || track?.streamAudioUrl || "";

const listeners = new Set();
let lastKey = null;
let lastList = null;

/** `fn(source())` whenever the chosen track changes, or its audio becomes available. */
export function onSource(fn) {
  listeners.add(fn);
}

function notify() {
  checkLength();
  const now = source();
  const key = `${now.taskId}/${now.audioId}/${audioOf(now.track)}`;
  if (key === lastKey) return;
  lastKey = key;
  for (const fn of listeners) fn(now);
}

function refreshPicker() {
  const select = picker();
  const tracks = [...(state.task?.tracks.values() ?? [])];
  const chosen = select.value;
  const list = tracks.map((t) => `${t.id}:${t.title}:${t.duration}`).join("|");
  if (list === lastList) return notify();
  lastList = list;
  const options = tracks.map((t, i) => el("option", { value: t.id, textContent: `${t.title || "Untitled"} · Track ${i + 1} · ${formatDuration(t.duration)} · ${t.id.slice(0, 8)}` }));
  if (!options.length) options.push(el("option", { value: "", textContent: "No track yet: make a song, or open one from Your tasks" }));
  select.replaceChildren(...options);
  if (tracks.some((t) => t.id === chosen)) select.value = chosen;
  notify();
}

/** Where a tool's errors show: its own form, or the track picker for the source's ids. */
export function toolErrors(form) {
  return {
    roots: [form, sourceBox()].filter(Boolean),
    labels: { taskId: "Song", audioId: "Track to work on", ...fieldLabels(sourceBox()), ...fieldLabels(form) },
  };
}

/**
 * Builds the fields `show` of operation `name` into `container` from the service's description
 * (labels, widgets, limits and docs as in the operation forms); `values`: starting values,
 * `labels`: the tool's words. Returns the description, or null when the host does not have it.
 */
export function toolFields(container, name, { show, values = {}, labels = {}, wide = [], prefix }) {
  const described = describeOperation(state.service, name);
  const section = container.closest(".tool");
  if (!described) {
    container.replaceChildren(el("p", { className: "muted small", textContent: `This music host does not describe ${name}.` }));
    return null;
  }
  const op = { name, values, labels, wide };
  const fields = show.map((n) => described.fields.find((f) => f.name === n)).filter(Boolean);
  container.replaceChildren(...fields.map((f) => field(op, f, null, prefix)));
  describeTool(section, described);
  return described;
}

/** The tool's blurb and price, from the operation's description. */
export function describeTool(section, described) {
  const blurb = section?.querySelector(".tool-blurb");
  if (blurb && described) blurb.textContent = described.summary;
  const cost = section?.querySelector(".tool-cost");
  if (cost && described?.credits != null) cost.textContent = creditsText(described.credits);
}

/** The values of the fields `names` of `form`, typed as the description says. */
export function collectFields(form, described, names) {
  const request = {};
  for (const f of described?.fields ?? []) {
    if (!names.includes(f.name)) continue;
    const input = form.elements[f.name];
    if (!input || input.disabled) continue;
    if (input.type === "checkbox") request[f.name] = input.checked;
    else if (f.type === "number" || f.type === "integer") {
      if (input.value !== "") request[f.name] = Number(input.value);
    } else {
      const value = input.value.trim();
      if (value !== "" || f.required) request[f.name] = value;
    }
  }
  return request;
}

/**
 * Runs a tool's action with its button busy and its status line kept up to date; an error is
 * shown next to its field in `form` (or the track picker), else as a toast, in the page's words.
 */
export async function runTool({ button, status, form }, action) {
  if (form) clearFieldErrors(form);
  clearFieldErrors(sourceBox());
  if (status) status.textContent = "";
  const inline = toolAlerts(button.closest(".tool"));
  inline.replaceChildren();
  button.disabled = true;
  button.classList.add("busy");
  try {
    await action((text) => { if (status) status.textContent = text; });
  } catch (error) {
    if (status) status.textContent = "";
    showError(error, { ...toolErrors(form ?? sourceBox()), inline });
  } finally {
    button.disabled = false;
    button.classList.remove("busy");
    checkLength();
  }
}

/** A tool's place for what went wrong in it, under its status line: a message never covers the studio. */
export const toolAlerts = (section) => alertPlace(section.querySelector(".tool-status") ?? section.lastElementChild);

/** Tools that need a track of some length: `{ section, button, seconds, why }`. */
const lengthNeeds = [];

/**
 * Says beside a tool, before anything is sent, when the chosen track is too short for it (and
 * keeps its button off until another track is chosen): `seconds`, the shortest track it takes;
 * `why`, the rule behind it.
 */
export function needsLength(section, button, seconds, why) {
  const note = el("p", { className: "tool-short small", hidden: true, id: `${section.id}-short` });
  section.querySelector(".tool-blurb").after(note);
  button.setAttribute("aria-describedby", note.id);
  lengthNeeds.push({ section, button, note, seconds, why });
  checkLength();
}

function checkLength() {
  const { track } = source();
  for (const need of lengthNeeds) {
    const short = Number.isFinite(track?.duration) && track.duration < need.seconds;
    need.note.hidden = !short;
    need.note.textContent = short
      ? `This track lasts ${track.duration.toFixed(1)} s: ${need.why}, so it needs a track of at least ${need.seconds} s. Pick a longer track, or extend this one first.`
      : "";
    if (!need.button.classList.contains("busy")) need.button.disabled = short;
  }
}

/** A tool's form: submitting runs `action`, edits clear the field's error. */
export function toolForm(form, action) {
  clearErrorsOnEdit(form);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    action();
  });
}

export function initStudio() {
  picker().addEventListener("change", notify);
  clearErrorsOnEdit(sourceBox());
  on("task", refreshPicker);
  refreshPicker();
}
