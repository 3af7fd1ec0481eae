// MIDI of a stem: `generateMidi` with the finished separation's task id and the stem's id (from
// `originData`), followed with `waitForMidi`; the notes drawn as a piano roll (pianoroll.js), with
// "Play along": the stem plays and a playhead crosses the roll, lighting the notes it meets.
import { $ } from "./dom.js";
import { logCreated, logState, stateOf } from "./callbacks.js";
import { describeRoll, drawPianoRoll } from "./pianoroll.js";
import { callOptions, describeOperation, pollSchedule } from "./service.js";
import { on, state } from "./store.js";
import { describeTool, runTool } from "./studio.js";

/** The roll on show: `{ instruments, audio, duration }`. */
let shown = null;
let frame = 0;
let abort = null;
const wired = new WeakSet();
const PLAY = "Play along with the stem";

function draw() {
  if (!shown) return;
  const audio = shown.audio;
  const playing = audio && !audio.paused;
  drawPianoRoll($("#roll"), shown.instruments, { time: playing || audio?.currentTime > 0 ? audio.currentTime : null, duration: shown.duration });
}

function follow() {
  cancelAnimationFrame(frame);
  const tick = () => {
    draw();
    if (shown?.audio && !shown.audio.paused) frame = requestAnimationFrame(tick);
  };
  tick();
}

function show(midi, stem, audio) {
  const instruments = midi.midiData?.instruments ?? [];
  shown = { instruments, audio, duration: Number.isFinite(audio?.duration) ? audio.duration : stem?.duration ?? null };
  const canvas = $("#roll");
  const text = describeRoll(instruments, stem?.name);
  canvas.setAttribute("aria-label", `Piano roll of the ${stem?.name ?? "stems"}: ${text}`);
  $("#roll-caption").textContent = `${stem?.name ?? "Every stem"}: ${text}. Brighter notes are louder.`;
  $("#roll-wrap").hidden = false;
  $("#roll-play").disabled = !audio;
  if (audio && !wired.has(audio)) {
    wired.add(audio);
    audio.addEventListener("play", () => { if (shown?.audio === audio) { $("#roll-play").textContent = "Pause"; follow(); } });
    audio.addEventListener("pause", () => { if (shown?.audio === audio) $("#roll-play").textContent = PLAY; });
    audio.addEventListener("seeked", () => { if (shown?.audio === audio) draw(); });
  }
  $("#roll-play").textContent = audio && !audio.paused ? "Pause" : PLAY;
  draw();
}

/** Transcribes one stem (`stem.id`; every stem when null) of the finished `separation`. */
export function transcribe({ separation, stem, audio, button }) {
  const status = $("#midi-status");
  $("#tool-midi").scrollIntoView({ block: "nearest" });
  return runTool({ button, status, form: null }, async (say) => {
    abort?.abort();
    abort = new AbortController();
    const request = { taskId: separation.taskId, callBackUrl: state.settings.callBackUrl };
    if (stem?.id) request.audioId = stem.id;
    const created = await state.client.generateMidi(request, callOptions());
    logCreated("midi", `${created.taskId.slice(0, 8)}… of ${stem?.name ?? "every stem"}`);
    say(`Listening to the ${stem?.name ?? "stems"} for notes…`);
    const midi = await state.client.waitForMidi(created.taskId, {
      signal: abort.signal, ...pollSchedule(),
      onProgress: (r) => logState("midi", stateOf("midi", r)),
    });
    show(midi, stem, audio);
    say(`${midi.midiData?.instruments.reduce((n, i) => n + i.notes.length, 0) ?? 0} notes.`);
  });
}

function playAlong() {
  const audio = shown?.audio;
  if (!audio) return;
  if (audio.paused) {
    audio.currentTime = 0;
    audio.play().catch(() => {});
  } else {
    audio.pause();
  }
}

export function initMidi() {
  $("#roll-play").addEventListener("click", playAlong);
  on("service", (doc) => describeTool($("#tool-midi"), describeOperation(doc, "generateMidi")));
  window.addEventListener("resize", draw);
}
