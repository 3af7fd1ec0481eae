// The music video of the chosen track: `generateVideo` (with the optional author and watermark the
// description lists), followed with `waitForVideo`, shown in a `<video>` with a download link.
import { $, el } from "./dom.js";
import { logCreated, logState, stateOf } from "./callbacks.js";
import { callOptions, pollSchedule } from "./service.js";
import { on, state } from "./store.js";
import { checkTool, collectFields, runTool, source, toolFields, toolForm } from "./studio.js";

const FIELDS = ["author", "domainName"];
const form = () => $("#video-form");
let described = null;
let abort = null;

function render() {
  described = toolFields($("#video-fields"), "generateVideo", {
    show: FIELDS, prefix: "video-",
    labels: { author: "Artist shown in the video", domainName: "Watermark" },
    values: { author: "tunesmith demo" },
  });
}

function make() {
  return runTool({ button: $("#video-go"), status: $("#video-status"), form: form() }, async (say) => {
    abort?.abort();
    abort = new AbortController();
    const { taskId, audioId } = source();
    const request = { taskId, audioId, ...collectFields(form(), described, FIELDS), callBackUrl: state.settings.callBackUrl };
    await checkTool("generateVideo", request, described);
    const created = await state.client.generateVideo(request, callOptions());
    logCreated("video", `${created.taskId.slice(0, 8)}…`);
    say("Filming…");
    const task = await state.client.waitForVideo(created.taskId, {
      signal: abort.signal, ...pollSchedule(),
      onProgress: (r) => logState("video", stateOf("video", r)),
    });
    const url = task.response?.videoUrl ?? "";
    const video = $("#video-player");
    video.src = url;
    video.hidden = false;
    $("#video-link").replaceChildren(el("a", { href: url, download: "music-video.mp4", textContent: "⬇ Download the video (MP4)" }));
    say("Your music video is ready.");
  });
}

/**
 * A video the browser cannot play, said in a musician's words; the browser's own MediaError (a
 * demuxer's message) stays out of sight, in `data-detail`, for whoever debugs it.
 */
function videoError() {
  const player = $("#video-player");
  const error = player.error;
  if (!error) return;
  // A player that cannot play only spins: the words and the link take its place.
  player.hidden = true;
  const note = $("#video-note");
  note.textContent = "This browser cannot play this video here. The download link below still works: the file plays in a video player.";
  note.dataset.detail = `MediaError ${error.code}${error.message ? `: ${error.message}` : ""}`;
}

export function initVideo() {
  toolForm(form(), make);
  $("#video-player").addEventListener("error", videoError);
  $("#video-player").addEventListener("loadedmetadata", () => { $("#video-note").textContent = ""; });
  on("service", render);
}
