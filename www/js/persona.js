// A persona from the chosen track: `generatePersona` (answered at once) with a name, a
// description and the vocal segment to learn from; then "Sing a new song with it", which opens the
// Generate form in custom mode with the persona's id filled in (the form already offers
// `personaId`) and lyrics to start from (in `lyrics`, which V6 sings, else in custom mode's
// `prompt`), where the musician writes the lyrics, style and title and creates the song. A track
// shorter than the shortest segment is refused beside the tool.
import { $, el, shortTitle } from "./dom.js";
import { callOptions, describeOperation } from "./service.js";
import { showOperation } from "./forms.js";
import { on, state } from "./store.js";
import { checkTool, collectFields, needsLength, onSource, runTool, source, toolFields, toolForm } from "./studio.js";

const FIELDS = ["name", "description", "vocalStart", "vocalEnd", "style"];
/** The segment a persona learns from: 10 to 30 s, ending at 30 s unless told (as the service documents). */
const SEGMENT_MIN_S = 10;
const SEGMENT_DEFAULT_END_S = 30;
const STARTER_LYRICS = "[Verse]\nStreetlights hum a slower tune\nI follow them all the way home\n[Chorus]\nSing it low, sing it true\nThe night is ours to roam";
const form = () => $("#persona-form");
let described = null;

/** A field's longest value, as the service's description says (Infinity when it says none). */
const maxLengthOf = (method, name) => describeOperation(state.service, method)?.fields.find((f) => f.name === name)?.maxLength ?? Infinity;

function render() {
  described = toolFields($("#persona-fields"), "generatePersona", {
    show: FIELDS, prefix: "persona-", wide: ["description"],
    labels: { name: "Persona name", description: "Its musical character", vocalStart: "Learn from (s)", vocalEnd: "Until (s)", style: "Style label" },
    values: { name: "Velvet night", description: "Warm breathy alto, slow synthwave, soft pads and a lazy groove", vocalStart: "0", vocalEnd: String(SEGMENT_DEFAULT_END_S) },
  });
  fitSegment(source());
}

/** The segment's end as the description's default says, within the chosen track. */
function fitSegment({ track }) {
  const end = form().elements.vocalEnd;
  if (!end) return;
  const length = Number.isFinite(track?.duration) ? Math.floor(track.duration) : SEGMENT_DEFAULT_END_S;
  end.value = String(Math.min(SEGMENT_DEFAULT_END_S, length));
  end.dispatchEvent(new Event("input", { bubbles: true }));
}

function make() {
  return runTool({ button: $("#persona-go"), status: $("#persona-status"), form: form() }, async (say) => {
    const { taskId, audioId } = source();
    const request = { taskId, audioId, ...collectFields(form(), described, FIELDS) };
    await checkTool("generatePersona", request, described);
    const persona = await state.client.generatePersona(request, callOptions());
    const use = el("button", { type: "button", className: "btn small", id: "persona-use", textContent: "Sing a new song with it" });
    use.addEventListener("click", () => useInSong(persona));
    $("#persona-result").replaceChildren(
      el("p", {}, el("strong", { textContent: persona.name }), " ", el("code", { className: "small", textContent: persona.personaId })),
      el("p", { className: "small muted", textContent: persona.description }),
      use);
    say("Persona made.");
  });
}

/** Opens Generate in custom mode with the persona, its style as the song's. */
function useInSong(persona) {
  showOperation("generate");
  const f = $("#op-form").elements;
  // In custom mode already, the words are lyrics the musician wrote; before, the prompt was a
  // description of the song.
  const customBefore = f.customMode?.checked === true;
  const written = customBefore && Boolean(f.lyrics?.value.trim() || f.prompt?.value.trim());
  const put = (name, value) => {
    const input = f[name];
    if (!input) return;
    if (input.type === "checkbox") input.checked = value;
    else input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  };
  put("customMode", true);
  put("instrumental", false);
  put("personaId", persona.personaId);
  put("style", persona.description);
  put("title", shortTitle(`${persona.name}: a new song`, maxLengthOf("generate", "title")));
  // Lyrics to start from (the ones already written stay), selected so that typing replaces them.
  // V6 sings `lyrics`; custom mode sings the prompt only without them, so a description left there
  // from the other mode goes. A form without `lyrics` (before V6) sings the prompt as written.
  const sung = f.lyrics ?? f.prompt;
  if (!written) {
    put(sung?.name, STARTER_LYRICS);
    if (f.lyrics) put("prompt", "");
  }
  $("#h-op").scrollIntoView({ block: "start" });
  // Focused: the field that holds the words (a prompt of lyrics written before V6's field, say).
  const shown = f.lyrics?.value.trim() || !f.prompt?.value.trim() ? sung : f.prompt;
  shown?.focus({ preventScroll: true });
  shown?.select();
}

export function initPersona() {
  toolForm(form(), make);
  on("service", render);
  onSource(fitSegment);
  needsLength($("#tool-persona"), $("#persona-go"), SEGMENT_MIN_S, `a persona learns from a segment of ${SEGMENT_MIN_S} to ${SEGMENT_DEFAULT_END_S} s of it`);
}
