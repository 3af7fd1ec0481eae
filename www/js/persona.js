// A persona from the chosen track: `generatePersona` (answered at once) with a name, a
// description and the vocal segment to learn from; then "Sing a new song with it", which opens the
// Generate form in custom mode with the persona's id filled in (the form already offers
// `personaId`), where the musician writes the lyrics, style and title and creates the song.
import { $, el } from "./dom.js";
import { callOptions } from "./service.js";
import { showOperation } from "./forms.js";
import { on, state } from "./store.js";
import { collectFields, runTool, source, toolFields, toolForm } from "./studio.js";

const FIELDS = ["name", "description", "vocalStart", "vocalEnd", "style"];
const form = () => $("#persona-form");
let described = null;

function render() {
  described = toolFields($("#persona-fields"), "generatePersona", {
    show: FIELDS, prefix: "persona-", wide: ["description"],
    labels: { name: "Persona name", description: "Its musical character", vocalStart: "Learn from (s)", vocalEnd: "Until (s)", style: "Style label" },
    values: { name: "Velvet night", description: "Warm breathy alto, slow synthwave, soft pads and a lazy groove", vocalStart: "0", vocalEnd: "15" },
  });
}

function make() {
  return runTool({ button: $("#persona-go"), status: $("#persona-status"), form: form() }, async (say) => {
    const { taskId, audioId } = source();
    const persona = await state.client.generatePersona({ taskId, audioId, ...collectFields(form(), described, FIELDS) }, callOptions());
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
  put("title", `${persona.name}: a new song`);
  put("prompt", "");
  f.prompt?.setAttribute("placeholder", "Write the lyrics the persona sings");
  $("#h-op").scrollIntoView({ block: "start" });
  f.prompt?.focus({ preventScroll: true });
}

export function initPersona() {
  toolForm(form(), make);
  on("service", render);
}
