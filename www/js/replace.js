// Replace a section: the chosen track's waveform (waveform.js), a range selected on it by dragging
// (its start and end also typed, to two decimals), the new lyrics and style of that window, then
// `replaceSection` with the track's task and id; the result is followed and played in "Your song".
// A window the package or the track refuses (at least 10 s since V6, at most half the track) is
// shown next to the window as it is chosen, before anything is sent; a track too short for any
// window, beside the tool.
import { $ } from "./dom.js";
import { callOptions } from "./service.js";
import { on, state } from "./store.js";
import { refusals } from "./check.js";
import { audioOf, checkTool, collectFields, needsLength, onSource, runTool, source, toolAlerts, toolErrors, toolFields, toolForm } from "./studio.js";
import { openTask } from "./task.js";
import { Waveform } from "./waveform.js";
import { clearFieldError, showError, showFieldError } from "./messages.js";

const FIELDS = ["infillStartS", "infillEndS", "prompt", "tags", "title", "fullLyrics"];
const WINDOW_FIELDS = ["infillStartS", "infillEndS"];
/** Hundredths of a second: the longest window `shortestWindow` asks about (10 minutes). */
const LONGEST_ASKED = 60000;
const form = () => $("#replace-form");
let described = null;
let wave = null;
let stopAt = null;

function render() {
  described = toolFields($("#replace-fields"), "replaceSection", {
    show: FIELDS, prefix: "replace-", wide: ["prompt", "fullLyrics"],
    labels: { infillStartS: "Window start (s)", infillEndS: "Window end (s)", prompt: "New lyrics of the window", tags: "Style", title: "Title", fullLyrics: "The whole song's lyrics after the change" },
    values: { prompt: "Just the piano here, then the voice comes back softly" },
  });
  fill(source());
}

const NEW_SECTION = " (new section)";

/**
 * The chosen track's own words, as starting values; a window chosen on another track goes. The
 * status line stays while a replace runs: its new song becoming the chosen track is its progress.
 */
function fill({ track, task }) {
  const f = form().elements;
  if (!f.title) return;
  for (const name of ["infillStartS", "infillEndS"]) {
    f[name].value = "";
    clearFieldError(name, form());
  }
  if (!$("#replace-go").classList.contains("busy")) $("#replace-status").textContent = "";
  if (!track) return;
  // A replaced song's title already says so: once, however many times it is replaced.
  const title = (track.title ?? "").split(NEW_SECTION).join("").trim();
  f.title.value = title ? `${title}${NEW_SECTION}` : "";
  f.tags.value = track.tags ?? "";
  // A replaced song's track holds the window's lyrics only: the whole song's are those its request
  // gave. An instrumental has no lyrics of its own: after the change, the window's are the song's.
  f.fullLyrics.value = task?.request?.fullLyrics || track.prompt || f.prompt.value;
}

function showWindow({ start, end }, { typed = false } = {}) {
  const f = form().elements;
  const out = $("#replace-window");
  if (start == null) {
    out.textContent = "Drag across the waveform to choose the section to replace.";
  } else {
    out.textContent = `Selected ${start.toFixed(2)} s to ${end.toFixed(2)} s · ${(end - start).toFixed(2)} s`;
    // Typed times stay as typed: rewriting a field under the cursor would fight the typing.
    if (!typed) {
      if (f.infillStartS) f.infillStartS.value = start.toFixed(2);
      if (f.infillEndS) f.infillEndS.value = end.toFixed(2);
      for (const name of ["infillStartS", "infillEndS"]) f[name]?.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
  $("#replace-play").disabled = start == null;
  // The waveform is a slider for assistive technology: its value is the selection.
  const canvas = $("#replace-wave");
  canvas.setAttribute("aria-valuemin", "0");
  canvas.setAttribute("aria-valuemax", (wave?.duration ?? 0).toFixed(2));
  canvas.setAttribute("aria-valuenow", (start ?? 0).toFixed(2));
  canvas.setAttribute("aria-valuetext", out.textContent);
  checkWindow();
}

/** Typed times move the selection on the waveform, and the selection can be played. */
function typed() {
  const f = form().elements;
  if (f.infillStartS.value === "" || f.infillEndS.value === "" || !wave.duration) return;
  const [a, b] = [Number(f.infillStartS.value), Number(f.infillEndS.value)];
  if (!Number.isFinite(a) || !Number.isFinite(b)) return;
  wave.start = Math.min(a, b);
  wave.end = Math.max(a, b);
  wave.draw();
  showWindow({ start: wave.start, end: wave.end }, { typed: true });
}

/** The package's refusal of a window (start below end, long enough, two decimals), or null. */
async function windowRefusal(start, end) {
  const all = await refusals("replaceSection", { infillStartS: start, infillEndS: end }, described);
  return all.find((e) => WINDOW_FIELDS.includes(e.field) && e.rule !== "required") ?? null;
}

/**
 * The shortest window the package takes, in seconds, to the hundredth: asked of the package itself
 * (windows from 0 s, the range halved until found), so that the page follows the rules of the
 * service it was built for (10 s since V6, 6 s before) with no number of its own. Null if it takes
 * none.
 */
async function shortestWindow() {
  const takes = async (hundredths) => !(await windowRefusal(0, hundredths / 100));
  if (!(await takes(LONGEST_ASKED))) return null;
  let [refused, taken] = [0, LONGEST_ASKED];
  while (taken - refused > 1) {
    const mid = Math.floor((refused + taken) / 2);
    if (await takes(mid)) taken = mid;
    else refused = mid;
  }
  return taken / 100;
}

let checking = 0;
/**
 * The window as it is chosen, held against the rules before anything is sent: the package's own
 * (start below end, at least 10 s, two decimals), then the track's (inside it, at most half of it,
 * which the service would refuse with a 422). Shown next to the window's end.
 */
async function checkWindow() {
  const f = form().elements;
  if (!f.infillEndS || f.infillStartS.value === "" || f.infillEndS.value === "") return;
  const start = Number(f.infillStartS.value);
  const end = Number(f.infillEndS.value);
  const turn = ++checking;
  let error = await windowRefusal(start, end);
  if (turn !== checking) return;
  const length = wave.duration;
  if (!error && length && end > length + 1e-9) {
    error = { field: "infillEndS", rule: "range", message: `\`infillEndS\` must be within the track, which lasts ${length.toFixed(2)} s` };
  } else if (!error && length && end - start > length / 2 + 1e-9) {
    error = { field: "infillEndS", rule: "range", message: `\`infillEndS\` must make a window of at most half the track (${(length / 2).toFixed(2)} s of ${length.toFixed(2)} s)` };
  }
  for (const name of WINDOW_FIELDS) clearFieldError(name, form());
  if (error) showFieldError(error, toolErrors(form()), { focus: false });
}

async function load(now) {
  const audio = $("#replace-audio");
  const url = audioOf(now.track);
  fill(now);
  if (!now.track?.audioUrl) {
    wave.clear();
    $("#replace-wave").dataset.ready = "false";
    audio.removeAttribute("src");
    $("#replace-wave-note").textContent = now.track ? "The waveform is drawn once the track is finished." : "";
    return;
  }
  if (wave.url === url) return;
  $("#replace-wave-note").textContent = "Reading the audio…";
  $("#replace-wave").dataset.ready = "false";
  audio.src = url;
  try {
    const duration = await wave.load(url);
    $("#replace-wave-note").textContent = `${duration.toFixed(2)} s. Drag to select; arrow keys move the selection, Shift+arrows its end.`;
    $("#replace-wave").dataset.ready = "true";
  } catch (error) {
    $("#replace-wave-note").textContent = "";
    showError(error, { inline: toolAlerts($("#tool-replace")) });
  }
}

function playSelection() {
  const audio = $("#replace-audio");
  if (wave.start == null) return;
  audio.currentTime = wave.start;
  stopAt = wave.end;
  audio.play().catch(() => {});
}

function follow() {
  const audio = $("#replace-audio");
  const tick = () => {
    if (stopAt != null && audio.currentTime >= stopAt) {
      audio.pause();
      stopAt = null;
    }
    wave.setPlayhead(audio.currentTime);
    if (!audio.paused) requestAnimationFrame(tick);
  };
  tick();
}

function replace() {
  return runTool({ button: $("#replace-go"), status: $("#replace-status"), form: form() }, async (say) => {
    const { taskId, audioId } = source();
    const request = { taskId, audioId, ...collectFields(form(), described, FIELDS), callBackUrl: state.settings.callBackUrl };
    // The package checks the window (start below end, at least 10 s, two decimals) before sending.
    await checkTool("replaceSection", request, described);
    const created = await state.client.replaceSection(request, callOptions());
    say(`Replacing ${request.infillStartS.toFixed(2)} s to ${request.infillEndS.toFixed(2)} s: follow it in Your song.`);
    await openTask(created.taskId, { op: "replaceSection", title: request.title || null, created: true, request });
    if (state.task?.id === created.taskId) say("Done: the new version plays in Your song.");
  });
}

export function initReplace() {
  wave = new Waveform($("#replace-wave"), { onSelect: showWindow });
  toolForm(form(), replace);
  form().addEventListener("input", (event) => { if (/^infill/.test(event.target.name)) typed(); });
  // At most half the track: a track shorter than two of the shortest windows has none.
  shortestWindow().then((min) => {
    if (min != null) needsLength($("#tool-replace"), $("#replace-go"), 2 * min, `a replaced window lasts at least ${min} s and at most half the track`);
  });
  $("#replace-play").addEventListener("click", playSelection);
  $("#replace-audio").addEventListener("play", follow);
  $("#replace-audio").addEventListener("seeked", () => wave.setPlayhead($("#replace-audio").currentTime));
  onSource(load);
  on("service", render);
  showWindow({ start: null, end: null });
}
