// Recovery of an expired link: `recoverAudio` with an older music task's id (offered from Your
// tasks, or pasted), followed with `waitForRecovery` (the service's own envelope, 201 while it
// runs), each recovered track with a player on its fresh `audio_url`, or the record's own error.
import { $, el } from "./dom.js";
import { logCreated, logState, stateOf } from "./callbacks.js";
import { callOptions, pollSchedule } from "./service.js";
import { on, state } from "./store.js";
import { checkTool, collectFields, runTool, toolFields, toolForm } from "./studio.js";

const FIELDS = ["sunoTaskId"];
const form = () => $("#recovery-form");
let described = null;
let abort = null;
/** A recovered track's `status`, in the page's words. */
const STATUS_WORDS = { success: "· a fresh link", failed: "· no fresh link" };

function render() {
  described = toolFields($("#recovery-fields"), "recoverAudio", {
    show: FIELDS, prefix: "recovery-",
    labels: { sunoTaskId: "Older song (its task id)" },
  });
  const input = form().elements.sunoTaskId;
  if (input) {
    input.setAttribute("list", "recovery-ids");
    input.placeholder = "Pick one of Your tasks, or paste a task id";
    input.autocomplete = "off";
    input.spellcheck = false;
  }
}

/** Your tasks, offered as the older song. */
function offerHistory(history) {
  $("#recovery-ids").replaceChildren(...history.map((h) => el("option", { value: h.id, label: `${h.title || "Untitled"} · ${new Date(h.at).toLocaleString()}` })));
}

function recover() {
  return runTool({ button: $("#recovery-go"), status: $("#recovery-status"), form: form() }, async (say) => {
    abort?.abort();
    abort = new AbortController();
    $("#recovered").replaceChildren();
    const request = { ...collectFields(form(), described, FIELDS), callBackUrl: state.settings.callBackUrl };
    await checkTool("recoverAudio", request, described);
    const created = await state.client.recoverAudio(request, callOptions());
    logCreated("recovery", `${created.taskId.slice(0, 8)}… for ${request.sunoTaskId.slice(0, 8)}…`);
    say("Asking for fresh links…");
    const task = await state.client.waitForRecovery(created.taskId, {
      signal: abort.signal, ...pollSchedule(),
      onProgress: (r) => logState("recovery", stateOf("recovery", r)),
    });
    $("#recovered").replaceChildren(...task.tracks.map((t) => el("li", { className: "stem", dataset: { id: t.id, status: t.status } },
      el("div", { className: "stem-head" }, el("strong", { textContent: t.title || t.id }), el("span", { className: "small muted", textContent: ` ${STATUS_WORDS[t.status] ?? t.status}` })),
      t.audio_url
        ? el("audio", { controls: true, preload: "metadata", src: t.audio_url, className: "player", attrs: { "aria-label": `Play ${t.title || "the recovered track"}` } })
        : el("p", { className: "field-error", textContent: t.error ?? "" }))));
    say(`${task.tracks.filter((t) => t.audio_url).length} of ${task.tracks.length} tracks playable again.`);
  });
}

export function initRecovery() {
  toolForm(form(), recover);
  on("service", render);
  on("history", offerHistory);
  offerHistory(state.history);
}
