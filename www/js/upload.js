// The "Your audio" panel: a file picked or dropped (or the test melody) is checked to be audio by
// its bytes, then uploaded with progress; the uploaded file is the source of the upload operations.
import { $, el, fieldLabels, formatBytes } from "./dom.js";
import { MELODY_SECONDS, testMelody } from "./melody.js";
import { alertPlace, clearFieldErrors, showError, showFieldError } from "./messages.js";
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

/** The audio formats the page recognises by their first bytes (names as a musician knows them). */
const FORMATS = "WAV, MP3, M4A, AAC, Ogg, FLAC, WebM or AIFF";

/**
 * The audio format the first bytes `b` open, or null: the bytes decide, not the name or type. Each
 * signature is held to the bytes after it too, so that a text that starts with "ID3" is still text.
 */
function audioFormat(b) {
  const ascii = (at, s) => [...s].every((c, i) => b[at + i] === c.charCodeAt(0));
  if (ascii(0, "RIFF") && ascii(8, "WAVE")) return "WAV";
  // ID3v2: version 2 to 4, revision 0, then a size of four 7-bit bytes.
  if (ascii(0, "ID3")) return b[3] >= 2 && b[3] <= 4 && b[4] === 0 && [6, 7, 8, 9].every((i) => b[i] < 0x80) ? "MP3" : null;
  // An MPEG audio frame's sync word; layer bits 00 mark AAC in an ADTS stream.
  if (b[0] === 0xff && (b[1] & 0xe0) === 0xe0) return (b[1] & 0x06) === 0 ? "AAC" : "MP3";
  if (ascii(0, "OggS")) return "Ogg";
  if (ascii(0, "fLaC")) return "FLAC";
  // An MP4 file's first box (`ftyp`), whose size fits in far fewer than 32 bits.
  if (ascii(4, "ftyp") && b[0] === 0 && b[1] === 0) return "M4A";
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return "WebM";
  if (ascii(0, "FORM") && (ascii(8, "AIFF") || ascii(8, "AIFC"))) return "AIFF";
  return null;
}

/**
 * Why `file` cannot be a source (its bytes are not audio, whatever its name and type say), or
 * null when it is audio. Read before any operation is offered on it, so nothing is sent or charged.
 */
export async function notAudio(file) {
  const head = new Uint8Array(await file.slice(0, HEAD).arrayBuffer());
  if (audioFormat(head)) return null;
  const type = file.type ? ` (${file.type})` : "";
  return `${file.name}${type} is not an audio file: its bytes are not those of a ${FORMATS} file. Nothing was sent.`;
}

/** How many bytes open a file enough to tell its format. */
const HEAD = 16;

/**
 * Why an uploaded file (`UploadedFile`) cannot be the source of an audio operation, or null: its
 * first bytes, read back from its download URL, are not audio (a file uploaded some other way than
 * this panel's, which checks the bytes before uploading). `credits`: what the operation would cost,
 * which the service charges even when the source turns out not to be audio.
 */
export async function notAudioSource(upload, credits) {
  let head;
  try {
    const res = await fetch(upload.downloadUrl, { headers: { range: `bytes=0-${HEAD - 1}` }, cache: "no-store" });
    const reader = res.ok ? res.body?.getReader() : null;
    if (!reader) return null;
    const { value } = await reader.read();
    reader.cancel().catch(() => {});
    head = value ?? new Uint8Array();
  } catch {
    // Unreadable from this page: the service decides.
    return null;
  }
  if (audioFormat(head)) return null;
  const name = upload.originalName || upload.fileName || "The uploaded file";
  const type = upload.mimeType ? ` (${upload.mimeType})` : "";
  const price = credits ? ` (${credits} credits here)` : "";
  return `${name}${type} is not an audio file: its bytes are not those of a ${FORMATS} file. Nothing was sent: `
    + `the service charges for a task whose source file fails${price}. Upload an audio file.`;
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
  const alerts = alertPlace($("#err-uploadUrl"));
  alerts.replaceChildren();
  const refusal = await notAudio(file);
  if (refusal) {
    forget();
    showFieldError({ field: "uploadUrl", message: refusal }, sourceErrors());
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
    else showError(error, { inline: alerts });
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
  $("#sample").textContent = `No file at hand? Use a ${MELODY_SECONDS}-second test melody`;
  $("#sample").addEventListener("click", () => uploadAudio(testMelody()));
}
