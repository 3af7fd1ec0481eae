// Mashup: two audio files uploaded (`uploadFile`, each with its progress), then `mashup` with
// both download URLs as `uploadUrlList` and the song's mode, model and words from the description.
// The new song is followed and played in "Your song".
import { $, el, formatBytes } from "./dom.js";
import { clearFieldError, showError, showFieldError } from "./messages.js";
import { callOptions } from "./service.js";
import { on, state } from "./store.js";
import { checkTool, collectFields, runTool, toolAlerts, toolErrors, toolFields, toolForm } from "./studio.js";
import { openTask } from "./task.js";
import { notAudio } from "./upload.js";

const FIELDS = ["customMode", "instrumental", "model", "prompt", "style", "title", "vocalGender"];
const form = () => $("#mashup-form");
let described = null;
/** The two uploaded files (`UploadedFile`), by slot. */
const uploads = [null, null];

function render() {
  described = toolFields($("#mashup-fields"), "mashup", {
    show: FIELDS, prefix: "mashup-", wide: ["prompt"],
    labels: { customMode: "Custom mode (style, title and lyrics are mine)", instrumental: "Instrumental (no vocals)", prompt: "Describe the mashup (or its lyrics in custom mode)", vocalGender: "Vocal gender" },
    values: { customMode: false, prompt: "Blend both melodies into one upbeat dance track" },
  });
}

async function upload(slot, file) {
  const out = $(`#mashup-file-${slot}-status`);
  uploads[slot] = null;
  clearFieldError("uploadUrlList", form());
  const refusal = await notAudio(file);
  if (refusal) {
    showFieldError({ field: "uploadUrlList", message: refusal }, toolErrors(form()));
    out.textContent = "";
    return;
  }
  out.textContent = `Uploading ${file.name}…`;
  try {
    const done = await state.client.uploadFile(file, {
      uploadPath: "tunesmith-demo/mashup",
      onProgress: ({ loaded, total }) => { out.textContent = `${file.name}: ${formatBytes(loaded)} of ${formatBytes(total)} · ${Math.round((loaded / (total || 1)) * 100)}%`; },
      ...callOptions(),
    });
    uploads[slot] = done;
    out.replaceChildren(`✓ ${done.originalName || done.fileName} · ${formatBytes(done.fileSize)} `,
      el("audio", { controls: true, preload: "metadata", src: done.downloadUrl, className: "player", attrs: { "aria-label": `Play ${done.originalName || "track"} ${slot + 1}` } }));
    out.dataset.done = "true";
  } catch (error) {
    out.textContent = "";
    const where = { ...toolErrors(form()), inline: toolAlerts($("#tool-mashup")) };
    if (error?.kind === "validation") showFieldError({ field: "uploadUrlList", message: error.message }, where);
    else showError(error, where);
  }
}

function mix() {
  return runTool({ button: $("#mashup-go"), status: $("#mashup-status"), form: form() }, async (say) => {
    const request = {
      uploadUrlList: uploads.filter(Boolean).map((u) => u.downloadUrl),
      ...collectFields(form(), described, FIELDS),
      callBackUrl: state.settings.callBackUrl,
    };
    await checkTool("mashup", request, described);
    const created = await state.client.mashup(request, callOptions());
    say("Mixing both tracks: follow it in Your song.");
    await openTask(created.taskId, { op: "mashup", title: request.title || null, created: true });
    if (state.task?.id === created.taskId) say("Done: the mashup plays in Your song.");
  });
}

export function initMashup() {
  toolForm(form(), mix);
  for (const slot of [0, 1]) {
    const input = $(`#mashup-file-${slot}`);
    input.addEventListener("change", () => input.files[0] && upload(slot, input.files[0]));
  }
  on("service", render);
}
