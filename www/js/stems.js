// Stems: the chosen track separated into vocals and instrumental (`separate_vocal`), up to twelve
// stems (`split_stem`) or one named instrument (`split_stem_advanced` + `stemName`), each stem
// with its own player. A stem the service lists with an id (`originData`) can be transcribed to
// MIDI and drawn as a piano roll (midi.js).
import { $, el, formatDuration } from "./dom.js";
import { logCreated, logState, stateOf } from "./callbacks.js";
import { transcribe } from "./midi.js";
import { callOptions, creditsText, pollSchedule, priceOf } from "./service.js";
import { on, state } from "./store.js";
import { checkTool, collectFields, runTool, source, toolFields, toolForm } from "./studio.js";

const FIELDS = ["type", "stemName"];
const ADVANCED = "split_stem_advanced";
const form = () => $("#stems-form");
let described = null;
let abort = null;

/** Names for the stem URLs of `Stems` when the service lists no `originData`. */
const URL_NAMES = {
  vocalUrl: "Vocals", instrumentalUrl: "Instrumental", backingVocalsUrl: "Backing vocals", drumsUrl: "Drums",
  bassUrl: "Bass", guitarUrl: "Guitar", keyboardUrl: "Keyboard", percussionUrl: "Percussion", stringsUrl: "Strings",
  synthUrl: "Synth", fxUrl: "Effects", brassUrl: "Brass", woodwindsUrl: "Woodwinds",
};

function render() {
  described = toolFields($("#stems-fields"), "separateVocals", {
    show: FIELDS, prefix: "stems-",
    values: { type: "split_stem", stemName: "Piano" },
    labels: { type: "Separation", stemName: "Instrument to isolate" },
  });
  if (described) syncStemName();
}

/**
 * `stemName` goes with the advanced type only (the description says so): shown only then. The
 * price follows the type: a split into instruments costs more than vocals and instrumental.
 */
function syncStemName() {
  const f = form().elements;
  const price = priceOf(state.service, "separateVocals", { type: f.type?.value });
  if (price != null) $("#tool-stems .tool-cost").textContent = creditsText(price);
  const advanced = f.type?.value === ADVANCED;
  const wrap = form().querySelector("[data-field=stemName]");
  if (wrap) wrap.hidden = !advanced;
  if (f.stemName) f.stemName.disabled = !advanced;
}

/** The stems of a finished separation: `originData` (with ids, for MIDI) when listed, else the URLs. */
export function stemsOf(record) {
  const response = record?.response ?? {};
  if (Array.isArray(response.originData) && response.originData.length) {
    return response.originData.map((s) => ({ id: s.id, name: s.stem_type_group_name || "Stem", url: s.audio_url, duration: s.duration }));
  }
  return Object.entries(URL_NAMES).filter(([key]) => response[key]).map(([key, name]) => ({ id: null, name, url: response[key], duration: null }));
}

function showStems(record) {
  const stems = stemsOf(record);
  const list = $("#stems");
  list.replaceChildren(...stems.map((stem) => {
    const audio = el("audio", { controls: true, preload: "metadata", src: stem.url, className: "player", attrs: { "aria-label": `Play the ${stem.name} stem` } });
    const actions = el("div", { className: "row" });
    if (stem.id) {
      const midi = el("button", { type: "button", className: "btn small midi-btn", textContent: "MIDI piano roll", attrs: { "aria-label": `MIDI piano roll of the ${stem.name} stem` } });
      midi.addEventListener("click", () => transcribe({ separation: record, stem, audio, button: midi }));
      actions.append(midi);
    }
    return el("li", { className: "stem", dataset: { stem: stem.name, id: stem.id ?? "" } },
      el("div", { className: "stem-head" },
        el("strong", { className: "stem-name", textContent: stem.name }),
        stem.duration ? el("span", { className: "small muted", textContent: ` ${formatDuration(stem.duration)}` }) : null),
      audio, actions);
  }));
  if (!stems.some((s) => s.id)) {
    const all = el("button", { type: "button", className: "btn small midi-btn", textContent: "MIDI of every stem" });
    all.addEventListener("click", () => transcribe({ separation: record, stem: null, audio: $("#stems audio"), button: all }));
    list.append(el("li", { className: "stem" }, all));
  }
}

function separate() {
  const button = $("#stems-go");
  const status = $("#stems-status");
  return runTool({ button, status, form: form() }, async (say) => {
    abort?.abort();
    abort = new AbortController();
    $("#stems").replaceChildren();
    const { taskId, audioId } = source();
    const request = { taskId, audioId, ...collectFields(form(), described, FIELDS), callBackUrl: state.settings.callBackUrl };
    await checkTool("separateVocals", request, described);
    const created = await state.client.separateVocals(request, callOptions());
    logCreated("stems", `${created.taskId.slice(0, 8)}… (${request.type ?? "default"})`);
    say("Separating…");
    const record = await state.client.waitForVocalSeparation(created.taskId, {
      signal: abort.signal, ...pollSchedule(),
      onProgress: (r) => logState("stems", stateOf("stems", r)),
    });
    showStems(record);
    const count = stemsOf(record).length;
    say(`${count} ${count === 1 ? "stem" : "stems"}.`);
  });
}

export function initStems() {
  toolForm(form(), separate);
  form().addEventListener("change", (event) => { if (event.target.name === "type") syncStemName(); });
  on("service", render);
}
