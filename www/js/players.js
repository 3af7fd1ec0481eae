// The tracks of the task on show, each with its player (the first plays as soon as it can), a
// WAV conversion and "Extend this", which picks the track as the source of the next operation.
import { $, el, formatDuration } from "./dom.js";
import { logCreated, logState, stateOf } from "./callbacks.js";
import { alertPlace, showError } from "./messages.js";
import { callOptions, pollSchedule } from "./service.js";
import { keep, kept, set, state } from "./store.js";

const cards = new Map();
let autoplayed = false;

export function resetTracks() {
  cards.clear();
  autoplayed = false;
  $("#tracks").replaceChildren();
}

export function showTrack(task, track) {
  let card = cards.get(track.id);
  if (!card) {
    card = trackCard(task, track);
    cards.set(track.id, card);
    $("#tracks").append(card.root);
  }
  card.update(track);
  if (!autoplayed && card.src) {
    autoplayed = true;
    card.audio.play().catch(() => card.root.classList.add("press-play"));
  }
}

function trackCard(task, track) {
  const img = el("img", { className: "art", alt: "", width: 96, height: 96, decoding: "async" });
  // Two tracks of one song often share a title: their number tells them apart.
  const number = el("span", { className: "t-num small", textContent: `Track ${cards.size + 1}` });
  const title = el("h3", { className: "t-title" });
  const tags = el("p", { className: "t-tags small muted" });
  const dur = el("span", { className: "t-dur small" });
  const sound = el("p", { className: "t-sound small", hidden: true });
  const audio = el("audio", { controls: true, preload: "auto", className: "player" });
  const wavButton = el("button", { type: "button", className: "btn small", textContent: "Convert to WAV" });
  const wavOut = el("span", { className: "small wav-out", attrs: { "aria-live": "polite" } });
  const extendButton = el("button", { type: "button", className: "btn ghost small extend", textContent: "Extend this" });
  const root = el("article", { className: "track", dataset: { id: track.id } },
    el("div", { className: "art-wrap" }, img),
    el("div", { className: "t-meta" }, number, title, tags, el("p", { className: "small muted" }, "Duration ", dur), sound),
    audio,
    el("div", { className: "t-actions" }, wavButton, extendButton, wavOut));
  const card = {
    root, audio, src: "",
    update(d) {
      title.textContent = d.title || "Untitled";
      tags.textContent = d.tags || "";
      dur.textContent = formatDuration(d.duration);
      if (d.imageUrl && img.src !== d.imageUrl) {
        img.src = d.imageUrl;
        img.alt = `Cover of ${d.title || "the track"}`;
      }
      const best = d.audioUrl || d.streamAudioUrl || "";
      // Keep a playing stream: switching the source would restart the song.
      if (best && (!card.src || (audio.paused && audio.currentTime === 0 && best !== card.src))) {
        card.src = best;
        audio.src = best;
      }
      audio.setAttribute("aria-label", `Play ${d.title || "track"}`);
      // A sound made as a seamless loop plays as one: `<audio loop>`, its tempo and key shown.
      const s = task.sound;
      audio.loop = Boolean(s?.loop);
      sound.hidden = !s;
      if (s) sound.textContent = [s.loop ? "⟲ Loop" : null, s.tempo ? `${s.tempo} BPM` : null, s.key ? `Key ${s.key}` : null].filter(Boolean).join(" · ");
    },
  };
  audio.addEventListener("loadedmetadata", () => {
    if (!Number.isFinite(task.tracks.get(track.id)?.duration)) dur.textContent = formatDuration(audio.duration);
  });
  wavButton.addEventListener("click", () => convertWav(task, track.id, wavButton, wavOut));
  // Converted earlier (before a reload, or when the task was last open): the link, not the button.
  const made = kept(task.id)?.wavs?.[track.id];
  if (made) showWav(task, track.id, made, wavButton, wavOut);
  extendButton.addEventListener("click", () => set("chosenTrack", track.id));
  return card;
}

function showWav(task, audioId, url, button, out) {
  const title = task.tracks.get(audioId)?.title || "track";
  out.replaceChildren(el("a", { href: url, className: "wav-link", download: `${title}.wav`, textContent: "⬇ Download WAV" }));
  button.hidden = true;
}

async function convertWav(task, audioId, button, out) {
  button.disabled = true;
  const alerts = alertPlace(button.parentElement);
  alerts.replaceChildren();
  out.textContent = "Converting…";
  try {
    const { taskId } = await state.client.convertToWav({ taskId: task.id, audioId, callBackUrl: state.settings.callBackUrl }, callOptions());
    logCreated("wav", `${taskId.slice(0, 8)}…`);
    const wav = await state.client.waitForWav(taskId, {
      signal: task.abort.signal, ...pollSchedule(),
      onProgress: (record) => logState("wav", stateOf("wav", record)),
    });
    const url = wav.response?.audioWavUrl;
    keep(task.id, { wavs: { ...kept(task.id)?.wavs, [audioId]: url } });
    showWav(task, audioId, url, button, out);
  } catch (error) {
    out.textContent = "";
    button.disabled = false;
    showError(error, { inline: alerts });
  }
}
