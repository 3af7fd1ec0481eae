// Cover art for the task on show: two images in different styles, generated on request.
import { $, el } from "./dom.js";
import { logCreated, logState, stateOf } from "./callbacks.js";
import { alertPlace, showError } from "./messages.js";
import { callOptions, pollSchedule } from "./service.js";
import { keep, state } from "./store.js";

export function resetCovers() {
  $("#covers").replaceChildren();
  $("#covers-status").textContent = "";
  $("#covers-btn").disabled = false;
}

/** The task's cover images; `earlier`: made before this page opened the task. Made once: not offered again. */
export function showCovers(images, { earlier = false } = {}) {
  $("#covers-status").textContent = `${images.length} images${earlier ? ", made earlier" : ""}.`;
  $("#covers-btn").disabled = true;
  $("#covers").replaceChildren(...images.map((src, i) =>
    el("a", { href: src, target: "_blank", rel: "noopener" }, el("img", { src, alt: `Cover art, style ${i + 1}`, className: "cover", width: 240, height: 240 }))));
}

async function generate() {
  const task = state.task;
  const button = $("#covers-btn");
  const status = $("#covers-status");
  button.disabled = true;
  alertPlace(status).replaceChildren();
  status.textContent = "Asking for covers…";
  try {
    const { taskId } = await state.client.generateCover({ taskId: task.id, callBackUrl: state.settings.callBackUrl }, callOptions());
    logCreated("cover", `${taskId.slice(0, 8)}…`);
    status.textContent = "Painting…";
    const cover = await state.client.waitForCover(taskId, {
      signal: task.abort.signal, ...pollSchedule(),
      onProgress: (record) => logState("cover", stateOf("cover", record)),
    });
    keep(task.id, { covers: cover.images });
    if (state.task !== task) return;
    showCovers(cover.images);
  } catch (error) {
    status.textContent = "";
    button.disabled = false;
    showError(error, { inline: alertPlace(status) });
  }
}

export function initCovers() {
  $("#covers-btn").addEventListener("click", generate);
}
