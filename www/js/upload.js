// The "Your audio" panel: a file picked or dropped (or the test melody) is checked to be audio,
// then uploaded with progress; the uploaded file is the source of the upload operations.
import { $, el, fieldLabels, formatBytes } from "./dom.js";
import { testMelody } from "./melody.js";
import { clearFieldErrors, showError, showFieldError } from "./messages.js";
import { callOptions } from "./service.js";
import { set, state } from "./store.js";

const card = () => $("#h-source").closest("section");

/** Where an error about the source is shown, and the name the page gives it. */
export const sourceErrors = () => ({ roots: [card()], labels: { ...fieldLabels(card()), file: fieldLabels(card()).uploadUrl } });

function expiryText(iso) {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso ?? "–";
  const hours = Math.round((at - Date.now()) / 3600000);
  const when = at.toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  return `${when} (in ${hours >= 48 ? `${Math.round(hours / 24)} days` : `${hours} hours`})`;
}

function setProgress(fraction, text) {
  const box = $("#upload-progress");
  box.hidden = false;
  const pct = Math.round(fraction * 100);
  const bar = $(".bar", box);
  bar.setAttribute("aria-valuenow", String(pct));
  bar.style.setProperty("--pct", `${pct}%`);
  $("#upload-text").textContent = text;
}

/**
 * Audio by its type, or by its extension when the browser knows no type: the same list the
 * picker offers (its `accept`). Anything else is refused before a byte is sent.
 */
export function isAudio(file) {
  const accepted = $("#file").accept.split(",").map((s) => s.trim().toLowerCase());
  const type = (file.type || "").toLowerCase();
  const ext = `.${file.name.split(".").pop()?.toLowerCase()}`;
  return accepted.some((a) => (a.endsWith("/*") ? type.startsWith(a.slice(0, -1)) : a === type || a === ext));
}

function forget() {
  set("upload", null);
  $("#file-details").hidden = true;
  $("#source-audio").hidden = true;
  $("#upload-progress").hidden = true;
  $("#drop").dataset.state = "idle";
}

async function uploadAudio(file) {
  clearFieldErrors(card());
  if (!isAudio(file)) {
    forget();
    const kinds = $("#file").accept.split(",").filter((a) => a.startsWith(".")).map((a) => a.slice(1).toUpperCase());
    showFieldError({ field: "uploadUrl", message: `${file.name} is not an audio file${file.type ? ` (${file.type})` : ""}: pick a ${kinds.join(", ")} file. Nothing was sent.` }, sourceErrors());
    return;
  }
  const drop = $("#drop");
  drop.dataset.state = "busy";
  $("#file-details").hidden = true;
  setProgress(0, `Uploading ${file.name}…`);
  try {
    const upload = await state.client.uploadFile(file, {
      uploadPath: "tunesmith-demo",
      onProgress: ({ loaded, total }) =>
        setProgress(total ? loaded / total : 0, `${formatBytes(loaded)} of ${formatBytes(total)} · ${Math.round((loaded / (total || 1)) * 100)}%`),
      ...callOptions(),
    });
    setProgress(1, `Uploaded ${formatBytes(upload.fileSize)} · 100%`);
    drop.dataset.state = "done";
    set("upload", upload);
    showFileDetails(upload);
  } catch (error) {
    drop.dataset.state = "idle";
    setProgress(0, "Upload failed.");
    if (error?.kind === "validation") showFieldError({ field: "uploadUrl", message: error.message }, sourceErrors());
    else showError(error);
  }
}

function showFileDetails(file) {
  const dl = $("#file-details");
  const rows = [
    ["File", file.originalName || file.fileName],
    ["Size", formatBytes(file.fileSize)],
    ["Type", file.mimeType],
    ["Expires", expiryText(file.expiresAt)],
  ];
  dl.replaceChildren(...rows.flatMap(([term, value]) => [el("dt", { textContent: term }), el("dd", { textContent: value ?? "–" })]),
    el("dt", { textContent: "URL" }),
    el("dd", {}, el("a", { href: file.downloadUrl, textContent: file.fileName ?? "download", target: "_blank", rel: "noopener" })));
  dl.hidden = false;
  const audio = $("#source-audio");
  audio.src = file.downloadUrl;
  audio.hidden = false;
}

export function initUpload() {
  const input = $("#file");
  input.addEventListener("change", () => input.files[0] && uploadAudio(input.files[0]));
  const drop = $("#drop");
  for (const type of ["dragenter", "dragover"]) {
    drop.addEventListener(type, (e) => { e.preventDefault(); drop.classList.add("over"); });
  }
  for (const type of ["dragleave", "drop"]) drop.addEventListener(type, () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    const file = [...(e.dataTransfer?.files ?? [])][0];
    if (file) uploadAudio(file);
  });
  $("#sample").addEventListener("click", () => uploadAudio(testMelody()));
}
