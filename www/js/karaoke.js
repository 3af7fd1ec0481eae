// Lyrics, word by word: `getTimestampedLyrics` of the chosen track, its `alignedWords` shown as
// text, the word being sung highlighted while the track plays (on every animation frame while
// playing, and on `timeupdate`/`seeked` otherwise). A word clicked seeks there.
import { $, el } from "./dom.js";
import { callOptions, describeOperation } from "./service.js";
import { on, state } from "./store.js";
import { audioOf, checkTool, describeTool, onSource, runTool, source } from "./studio.js";

let words = [];
let spans = [];
let current = -1;

/** The index of the word sung at `t` (the last one started), or -1 before the first. */
function wordAt(t) {
  let lo = 0;
  let hi = words.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (words[mid].startS <= t) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

function highlight() {
  const t = $("#karaoke-audio").currentTime;
  const at = wordAt(t);
  const singing = at >= 0 && t < words[at].endS + 0.25;
  const next = singing ? at : -1;
  if (next === current && spans.length) return;
  spans.forEach((span, i) => {
    span.classList.toggle("sung", i < at || (i === at && !singing));
    span.classList.toggle("now", i === next);
    if (i === next) span.setAttribute("aria-current", "true");
    else span.removeAttribute("aria-current");
  });
  current = next;
  if (next >= 0) {
    const box = $("#karaoke-words");
    const span = spans[next];
    if (span.offsetTop < box.scrollTop || span.offsetTop > box.scrollTop + box.clientHeight - 30) box.scrollTop = span.offsetTop - box.clientHeight / 3;
  }
}

function follow() {
  const audio = $("#karaoke-audio");
  const tick = () => {
    highlight();
    if (!audio.paused) requestAnimationFrame(tick);
  };
  tick();
}

function show(lyrics) {
  words = [...(lyrics.alignedWords ?? [])].sort((a, b) => a.startS - b.startS);
  current = -1;
  spans = words.map((w, i) => {
    const span = el("span", { className: "word", textContent: w.word.replace(/\n+$/, ""), tabIndex: -1, dataset: { start: String(w.startS), end: String(w.endS), i: String(i) } });
    span.title = `${w.startS.toFixed(2)} s`;
    return span;
  });
  const box = $("#karaoke-words");
  const nodes = [];
  words.forEach((w, i) => {
    nodes.push(spans[i]);
    nodes.push(/\n/.test(w.word) ? el("br") : " ");
  });
  box.replaceChildren(...nodes);
  box.hidden = false;
  highlight();
}

function seekTo(event) {
  const span = event.target.closest(".word");
  if (!span) return;
  const audio = $("#karaoke-audio");
  audio.currentTime = Number(span.dataset.start);
  highlight();
}

function load() {
  return runTool({ button: $("#karaoke-go"), status: $("#karaoke-status"), form: null }, async (say) => {
    const { taskId, audioId, track } = source();
    // No track, no request: the picker says so, and nothing goes to the network.
    await checkTool("getTimestampedLyrics", { taskId, audioId });
    const lyrics = await state.client.getTimestampedLyrics({ taskId, audioId }, callOptions());
    const audio = $("#karaoke-audio");
    const url = audioOf(track);
    if (url && audio.src !== url) audio.src = url;
    audio.hidden = false;
    show(lyrics);
    say(`${words.length} words, timed. Press play: the word being sung lights up.`);
  });
}

export function initKaraoke() {
  const audio = $("#karaoke-audio");
  $("#karaoke-go").addEventListener("click", load);
  audio.addEventListener("play", follow);
  audio.addEventListener("timeupdate", highlight);
  audio.addEventListener("seeked", highlight);
  $("#karaoke-words").addEventListener("click", seekTo);
  on("service", (doc) => describeTool($("#tool-karaoke"), describeOperation(doc, "getTimestampedLyrics")));
  onSource(() => {
    // Another track: its own lyrics, read on request.
    words = [];
    spans = [];
    $("#karaoke-words").replaceChildren();
    $("#karaoke-words").hidden = true;
    $("#karaoke-status").textContent = "";
    audio.pause();
    audio.removeAttribute("src");
    audio.hidden = true;
  });
}
