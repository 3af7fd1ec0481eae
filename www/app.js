// The tunesmith demo: upload an audio file, start an operation, follow it stage by stage, play the
// tracks, make covers and WAV files, and compare the polled states with the callbacks received.
// Plain modules, no framework: everything the page does goes through the package in ./pkg/.
import * as tunesmith from "./pkg/index.js";

const { Client, ValidationError, TaskFailedError } = tunesmith;

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) node.append(child);
  return node;
};

// ---- Settings -----------------------------------------------------------------------------------

const DEV_KEY = "ts-dev-key";
// A fresh inbox per page load: the callbacks panel then shows this visit's tasks only.
const INBOX = `demo-${Math.random().toString(36).slice(2, 10)}`;
const params = new URLSearchParams(location.search);

const settings = {
  baseUrl: "",
  uploadUrl: "",
  apiKey: params.get("key") ?? DEV_KEY,
  callBackUrl: "",
  emulateCode: "",
};

/** The page's own origin serves the music API when the emulator serves the page (`cargo xtask demo`). */
function defaultMusicUrl() {
  return /^https?:$/.test(location.protocol) ? location.origin : "http://127.0.0.1:8787";
}

/**
 * The upload host is a second server. The emulator names both hosts in the `servers` of its
 * OpenAPI document; without it, the demo's convention is the next port.
 */
async function discoverUploadUrl(baseUrl) {
  try {
    const res = await fetch(`${baseUrl}/openapi.json`, { signal: AbortSignal.timeout(3000) });
    if (res.ok) {
      const doc = await res.json();
      // The upload operations carry their own `servers` (OpenAPI path-level override).
      const servers = [doc.servers ?? [], ...Object.values(doc.paths ?? {}).map((p) => p?.servers ?? [])].flat();
      const upload = servers.find((s) => /upload/i.test(String(s?.description ?? "")))?.url;
      if (upload) return String(upload).replace(/\/$/, "");
    }
  } catch {
    // Not the emulator, or not reachable yet: fall through to the convention.
  }
  const url = new URL(baseUrl);
  url.port = String(Number(url.port || (url.protocol === "https:" ? 443 : 80)) + 1);
  return url.origin;
}

let client = null;

function makeClient() {
  // dangerouslyAllowBrowser: this page is a demo against a local emulator (see the warning in
  // Settings). A real app points baseUrl at its proxy or passes an apiKey function instead.
  client = new Client({
    apiKey: settings.apiKey || undefined,
    baseUrl: settings.baseUrl,
    uploadUrl: settings.uploadUrl,
    dangerouslyAllowBrowser: true,
  });
}

/** Per-call options: the simulated service answer of Settings applies to one request. */
function callOptions(extra = {}) {
  const code = settings.emulateCode;
  if (!code) return extra;
  settings.emulateCode = "";
  $("#settings-form").elements.emulateCode.value = "";
  return { ...extra, maxRetries: 0, headers: { "X-Emulate-Code": code } };
}

function fillSettingsForm() {
  const form = $("#settings-form");
  for (const name of ["baseUrl", "uploadUrl", "apiKey", "callBackUrl"]) form.elements[name].value = settings[name];
  const host = (() => { try { return new URL(settings.baseUrl).host; } catch { return settings.baseUrl; } })();
  $("#settings-summary").textContent = `· ${host}${settings.apiKey === DEV_KEY ? " · development key" : ""}`;
}

$("#settings-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  try {
    settings.baseUrl = form.elements.baseUrl.value.trim().replace(/\/$/, "");
    settings.uploadUrl = form.elements.uploadUrl.value.trim().replace(/\/$/, "");
    settings.apiKey = form.elements.apiKey.value.trim();
    settings.callBackUrl = form.elements.callBackUrl.value.trim();
    settings.emulateCode = form.elements.emulateCode.value;
    makeClient();
    fillSettingsForm();
    $("#settings-note").textContent = settings.emulateCode
      ? `The next request will be answered with code ${settings.emulateCode}.`
      : "Applied.";
    refreshCredits();
  } catch (error) {
    showError(error);
  }
});

// ---- Connection and credits ---------------------------------------------------------------------

async function refreshCredits() {
  const pill = $("#conn");
  try {
    const { credits } = await client.getCredits({}, { maxRetries: 0, timeoutMs: 5000 });
    $("#credits").textContent = credits.toLocaleString();
    const local = /^(127\.|localhost|\[::1\])/.test(new URL(settings.baseUrl).host);
    pill.dataset.state = "ok";
    $("#conn-text").textContent = local ? "Local emulator" : "Connected";
  } catch (error) {
    pill.dataset.state = "error";
    $("#conn-text").textContent = error.kind === "unauthorized" ? "Key refused" : "Not connected";
    if (error.kind !== "network") showError(error);
  }
}

// ---- Errors in plain words -----------------------------------------------------------------------

/** What went wrong and what to do about it, for each kind of error the package reports. */
function explain(error) {
  const retried = error.attempts > 1 ? ` (the client tried ${error.attempts} times)` : "";
  switch (error.kind) {
    case "rate_limited":
      return ["Too many requests right now", `The service asks us to slow down${retried}. Wait a few seconds, then try again.`];
    case "maintenance":
      return ["The service is under maintenance", `Nothing was created${retried}. Try again in a few minutes.`];
    case "insufficient_credits":
      return ["Not enough credits", "This key has run out of credits. Top up the account (or restart the emulator), then try again."];
    case "unauthorized":
      return ["The key was refused", "Check the API key in Settings. The local emulator accepts ts-dev-key."];
    case "network":
      return ["Can't reach the service", `No answer from the server${retried}. Is the emulator running (cargo xtask demo)? Check the URLs in Settings.`];
    case "timeout":
      return ["The service took too long", `No answer in time${retried}. Try again; if it keeps happening, the service may be overloaded.`];
    case "aborted":
      return ["Stopped", "The request was cancelled."];
    case "task_failed":
      return ["The task failed", `${error.errorMessage || error.message}${error.taskStatus ? ` (${error.taskStatus})` : ""}. Change the request (for example the words or the audio) and try again; failed tasks are not charged twice.`];
    case "conflict":
      return ["Already done", "The service already has this for the task. Use the existing result."];
    case "not_found":
      return ["Not found", "The service does not know this task or file. Files expire 3 days after upload; tracks are kept 14 days."];
    case "invalid":
      return ["The service refused the request", error.message];
    case "server":
      return ["The service had a problem", `Its error, not yours${retried}. Try again in a moment.`];
    case "validation":
      return ["Check the form", error.message];
    case "configuration":
      return ["Settings need a look", error.message];
    default:
      return ["Something went wrong", error?.message ?? String(error)];
  }
}

function showError(error) {
  if (error?.kind === "aborted") return;
  const [title, what] = explain(error);
  const detail = [error.code != null ? `code ${error.code}` : null, error.requestId ? `request ${error.requestId}` : null]
    .filter(Boolean).join(" · ");
  const close = el("button", { type: "button", className: "toast-close", ariaLabel: "Dismiss", textContent: "×" });
  const toast = el("div", { className: `toast kind-${error.kind ?? "unknown"}` },
    el("strong", { textContent: title }), el("p", { textContent: what }),
    ...(detail ? [el("p", { className: "small muted", textContent: detail })] : []), close);
  close.addEventListener("click", () => toast.remove());
  $("#toasts").append(toast);
  setTimeout(() => toast.remove(), 12000);
}

// ---- Validation errors next to their field -------------------------------------------------------

function clearFieldErrors() {
  for (const node of document.querySelectorAll(".field-error")) node.textContent = "";
  for (const node of document.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
}

function showFieldError(error) {
  const slot = $(`[data-error-for="${CSS.escape(error.field ?? "")}"]`) ?? $("#err-request");
  slot.textContent = error.message;
  const input = $(`#op-form [name="${CSS.escape(error.field ?? "")}"]`);
  if (input) {
    input.setAttribute("aria-invalid", "true");
    input.focus();
  } else if (error.field === "uploadUrl") {
    $("#drop").scrollIntoView({ block: "center", behavior: "smooth" });
    $("#file").focus();
  }
}

// ---- Upload ----------------------------------------------------------------------------------------

let upload = null;

const formatBytes = (n) => n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;
const formatDuration = (s) => Number.isFinite(s) ? `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, "0")}` : "–";

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

async function uploadAudio(file) {
  clearFieldErrors();
  const drop = $("#drop");
  drop.dataset.state = "busy";
  $("#file-details").hidden = true;
  setProgress(0, `Uploading ${file.name}…`);
  try {
    upload = await client.uploadFile(file, {
      uploadPath: "tunesmith-demo",
      onProgress: ({ loaded, total }) =>
        setProgress(total ? loaded / total : 0, `${formatBytes(loaded)} of ${formatBytes(total)} · ${Math.round((loaded / (total || 1)) * 100)}%`),
      ...callOptions(),
    });
    setProgress(1, `Uploaded ${formatBytes(upload.fileSize)} · 100%`);
    drop.dataset.state = "done";
    showFileDetails(upload);
  } catch (error) {
    drop.dataset.state = "idle";
    setProgress(0, "Upload failed.");
    if (error instanceof ValidationError) showFieldError({ ...error, message: error.message, field: "uploadUrl" });
    else showError(error);
  }
}

function showFileDetails(file) {
  const dl = $("#file-details");
  dl.replaceChildren();
  const rows = [
    ["File", file.originalName || file.fileName],
    ["Size", formatBytes(file.fileSize)],
    ["Type", file.mimeType],
    ["Expires", expiryText(file.expiresAt)],
  ];
  for (const [term, value] of rows) dl.append(el("dt", { textContent: term }), el("dd", { textContent: value ?? "–" }));
  dl.append(el("dt", { textContent: "URL" }), el("dd", {}, el("a", { href: file.downloadUrl, textContent: file.fileName ?? "download", target: "_blank", rel: "noopener" })));
  dl.hidden = false;
  const audio = $("#source-audio");
  audio.src = file.downloadUrl;
  audio.hidden = false;
}

const fileInput = $("#file");
fileInput.addEventListener("change", () => fileInput.files[0] && uploadAudio(fileInput.files[0]));
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
$("#sample").addEventListener("click", () => uploadAudio(new File([testMelody()], "test-melody.wav", { type: "audio/wav" })));

/** A short hummed melody as a 16-bit mono WAV, so the demo can be tried without a file. */
function testMelody() {
  const rate = 22050;
  const notes = [60, 62, 64, 67, 69, 67, 64, 62, 60, 64, 67, 72];
  const noteLen = 0.5;
  const samples = Math.round(rate * noteLen * notes.length);
  const view = new DataView(new ArrayBuffer(44 + samples * 2));
  const text = (offset, s) => [...s].forEach((c, i) => view.setUint8(offset + i, c.charCodeAt(0)));
  text(0, "RIFF"); view.setUint32(4, 36 + samples * 2, true); text(8, "WAVEfmt ");
  view.setUint32(16, 16, true); view.setUint16(20, 1, true); view.setUint16(22, 1, true);
  view.setUint32(24, rate, true); view.setUint32(28, rate * 2, true); view.setUint16(32, 2, true);
  view.setUint16(34, 16, true); text(36, "data"); view.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const n = Math.min(notes.length - 1, Math.floor(t / noteLen));
    const local = t - n * noteLen;
    const freq = 440 * 2 ** ((notes[n] - 69) / 12);
    const env = Math.min(1, local * 30) * Math.exp(-local * 3);
    const v = env * (0.6 * Math.sin(2 * Math.PI * freq * t) + 0.2 * Math.sin(4 * Math.PI * freq * t));
    view.setInt16(44 + i * 2, Math.round(v * 0.5 * 32767), true);
  }
  return view.buffer;
}

// ---- Operation forms -------------------------------------------------------------------------------

const MODELS = [["V6", "V6 · recommended"], ["V6_WILD", "V6 Wild · more experimental"], ["V6_MINI", "V6 Mini · lightweight"]];
const OLD_MODELS = ["V5_5", "V5", "V4_5PLUS", "V4_5ALL", "V4_5", "V4"];
const WEIGHTS = [
  { name: "styleWeight", label: "Style weight", kind: "slider", value: 0.65, hint: "How closely the style is followed" },
  { name: "weirdnessConstraint", label: "Weirdness", kind: "slider", value: 0.35, hint: "How far from convention it may stray" },
  { name: "audioWeight", label: "Audio weight", kind: "slider", value: 0.7, hint: "How much your audio shapes the result" },
];
const GENDER = { name: "vocalGender", label: "Vocal gender", kind: "select", options: [["", "Any"], ["f", "Female"], ["m", "Male"]] };
const MODEL = { name: "model", label: "Model", kind: "model" };

const OPS = {
  addInstrumental: {
    label: "Add instrumental", method: "addInstrumental", source: "upload",
    blurb: "An accompaniment for your vocal stem or melody. Results are kept 14 days.",
    fields: [
      { name: "title", label: "Title", kind: "text", value: "Night drive", required: true },
      { name: "negativeTags", label: "Leave out", kind: "text", value: "heavy metal, harsh noise", required: true },
      { name: "tags", label: "Style, mood and instruments", kind: "text", value: "synthwave, warm pads, slow groove", required: true, boost: true },
      { name: "lyrics", label: "Lyrics", kind: "textarea", placeholder: "Optional: the words being sung (at most 5000 characters)" },
      { name: "variety", label: "Variety", kind: "select", number: true, value: "1",
        options: [["0", "0 · off"], ["1", "1 · normal"], ["2", "2 · high"], ["3", "3 · extra"], ["4", "4 · max"]] },
      GENDER, MODEL, ...WEIGHTS,
    ],
  },
  addVocals: {
    label: "Add vocals", method: "addVocals", source: "upload",
    blurb: "Generated vocals layered over your instrumental. Results are kept 14 days.",
    fields: [
      { name: "title", label: "Title", kind: "text", value: "Harbour lights", required: true },
      { name: "negativeTags", label: "Leave out", kind: "text", value: "autotune, screaming", required: true },
      { name: "prompt", label: "What the song is about", kind: "textarea", value: "Waiting for a ship at dawn, hopeful and a little sad", required: true },
      { name: "style", label: "Genre and vocal approach", kind: "text", value: "indie folk, breathy close-mic vocals", required: true, boost: true },
      { name: "tags", label: "Extra style tags", kind: "text", placeholder: "Optional" },
      GENDER, MODEL, ...WEIGHTS,
    ],
  },
  extend: {
    label: "Extend", method: "extend", source: "track",
    blurb: "Continue a generated track. The model must be the one of the source track; files are kept 15 days.",
    fields: [
      { name: "audioId", label: "Track to extend", kind: "track", required: true },
      { name: "defaultParamFlag", label: "Custom parameters (prompt, style, title, start)", kind: "checkbox", value: true },
      { name: "prompt", label: "Prompt", kind: "textarea", value: "A bright bridge that lifts into the last chorus", hint: "At most 3000 characters" },
      { name: "style", label: "Style", kind: "text", value: "synthwave, bigger drums", boost: true, hint: "At most 200 characters" },
      { name: "title", label: "Title", kind: "text", value: "Night drive (extended)", hint: "At most 80 characters" },
      { name: "continueAt", label: "Start at (seconds)", kind: "number", value: "20", min: 0, step: 1 },
      { name: "negativeTags", label: "Leave out", kind: "text", placeholder: "Optional" },
      GENDER, MODEL, ...WEIGHTS,
    ],
  },
  generate: {
    label: "Generate", method: "generate", source: null,
    blurb: "Two new tracks from a description, or from your lyrics, style and title in custom mode.",
    fields: [
      { name: "prompt", label: "Describe the song (or its lyrics in custom mode)", kind: "textarea", value: "A lazy summer afternoon, lo-fi, vinyl crackle, soft Rhodes" },
      { name: "customMode", label: "Custom mode (style and title are mine, the prompt is the lyrics)", kind: "checkbox", value: false },
      { name: "instrumental", label: "Instrumental (no vocals)", kind: "checkbox", value: false },
      { name: "title", label: "Title", kind: "text", placeholder: "Custom mode: e.g. Afternoon" },
      { name: "negativeTags", label: "Leave out", kind: "text", placeholder: "Optional" },
      { name: "style", label: "Style", kind: "text", placeholder: "Custom mode: e.g. lo-fi hip hop", boost: true },
      GENDER, MODEL, ...WEIGHTS,
    ],
  },
};

let currentOp = "addInstrumental";
const drafts = {};

function renderTabs() {
  const box = $("#ops");
  for (const [key, op] of Object.entries(OPS)) {
    const id = `op-${key}`;
    const input = el("input", { type: "radio", name: "op", id, value: key, checked: key === currentOp });
    input.addEventListener("change", () => selectOp(key));
    box.append(el("div", { className: "tab" }, input, el("label", { htmlFor: id, textContent: op.label })));
  }
}

function fieldControl(f) {
  const id = `f-${f.name}`;
  const errorId = `err-${f.name}`;
  const described = [f.hint ? `${id}-hint` : null, errorId].filter(Boolean).join(" ");
  let control;
  switch (f.kind) {
    case "textarea":
      control = el("textarea", { id, name: f.name, rows: 3, placeholder: f.placeholder ?? "", value: f.value ?? "" });
      break;
    case "select":
      control = el("select", { id, name: f.name });
      for (const [value, label] of f.options) control.append(el("option", { value, textContent: label }));
      control.value = f.value ?? "";
      break;
    case "model": {
      control = el("select", { id, name: f.name });
      for (const [value, label] of MODELS) control.append(el("option", { value, textContent: label }));
      const old = el("optgroup", { label: "Deprecated (backward compatibility)" });
      for (const value of OLD_MODELS) old.append(el("option", { value, textContent: value }));
      control.append(old);
      control.value = "V6";
      break;
    }
    case "slider": {
      const range = el("input", { id, name: f.name, type: "range", min: 0, max: 1, step: 0.01, value: String(f.value) });
      const out = el("output", { htmlFor: id, className: "slider-value", textContent: Number(f.value).toFixed(2) });
      range.addEventListener("input", () => { out.textContent = Number(range.value).toFixed(2); });
      range.setAttribute("aria-describedby", described);
      const wrap = el("div", { className: `field slider` },
        el("label", { htmlFor: id }, f.label, out), range,
        el("p", { id: `${id}-hint`, className: "hint", textContent: f.hint }),
        el("p", { className: "field-error", id: errorId }));
      wrap.querySelector(".field-error").dataset.errorFor = f.name;
      return wrap;
    }
    case "checkbox": {
      const box = el("input", { id, name: f.name, type: "checkbox", checked: Boolean(f.value) });
      const wrap = el("div", { className: "field check" }, box, el("label", { htmlFor: id, textContent: f.label }),
        el("p", { className: "field-error", id: errorId }));
      wrap.querySelector(".field-error").dataset.errorFor = f.name;
      return wrap;
    }
    case "track":
      control = el("input", { id, name: f.name, type: "text", list: "track-ids", autocomplete: "off", spellcheck: false,
        placeholder: "Pick a generated track, or paste an audioId" });
      control.setAttribute("list", "track-ids");
      break;
    case "number":
      control = el("input", { id, name: f.name, type: "number", min: f.min, step: f.step, value: f.value ?? "", inputMode: "decimal" });
      break;
    default:
      control = el("input", { id, name: f.name, type: "text", placeholder: f.placeholder ?? "", value: f.value ?? "" });
  }
  control.setAttribute("aria-describedby", described);
  const label = el("label", { htmlFor: id }, f.label);
  if (f.required) label.append(el("span", { className: "req", textContent: " required" }));
  const row = el("div", { className: "control-row" }, control);
  if (f.boost) {
    const btn = el("button", { type: "button", className: "btn ghost small boost", textContent: "✦ Boost" });
    btn.title = "Rewrite this style description with the service's style booster";
    btn.setAttribute("aria-label", `Boost ${f.label}`);
    btn.addEventListener("click", () => boost(control, btn));
    row.append(btn);
  }
  const wrap = el("div", { className: `field${f.kind === "textarea" || f.boost ? " wide" : ""}` }, label, row);
  if (f.hint) wrap.append(el("p", { id: `${id}-hint`, className: "hint", textContent: f.hint }));
  const err = el("p", { className: "field-error", id: errorId });
  err.dataset.errorFor = f.name;
  wrap.append(err);
  return wrap;
}

function selectOp(key) {
  if (currentOp in OPS) drafts[currentOp] = new FormData($("#op-form"));
  currentOp = key;
  const op = OPS[key];
  $("#op-blurb").textContent = op.blurb;
  const fields = $("#fields");
  fields.replaceChildren(...op.fields.map(fieldControl));
  const draft = drafts[key];
  if (draft) {
    for (const f of op.fields) {
      const input = $("#op-form").elements[f.name];
      if (f.kind === "checkbox") input.checked = draft.has(f.name);
      else if (draft.has(f.name)) input.value = draft.get(f.name);
      input.dispatchEvent(new Event("input"));
    }
  }
  $("#go").textContent = `${op.label}`;
  $("#cost").textContent = op.source === "upload" ? "Uses the uploaded file · 10 credits" : "10 credits";
  clearFieldErrors();
  updateCode();
}

/** The request object exactly as the form would send it. */
function collect() {
  const op = OPS[currentOp];
  const form = $("#op-form");
  const request = {};
  if (op.source === "upload" && upload) request.uploadUrl = upload.downloadUrl;
  for (const f of op.fields) {
    const input = form.elements[f.name];
    if (f.kind === "checkbox") request[f.name] = input.checked;
    else if (f.kind === "slider") request[f.name] = Number(input.value);
    else if (f.number || f.kind === "number") {
      if (input.value !== "") request[f.name] = Number(input.value);
    } else {
      const value = input.value.trim();
      if (value !== "" || f.required) request[f.name] = value;
    }
  }
  request.callBackUrl = settings.callBackUrl;
  return request;
}

function updateCode() {
  const op = OPS[currentOp];
  const request = collect();
  if (op.source === "upload" && !upload) request.uploadUrl = "<file.downloadUrl>";
  $("#code").textContent =
    `const { taskId } = await client.${op.method}(${JSON.stringify(request, null, 2)});\n` +
    `const task = await client.waitForTask(taskId, { onProgress: (t) => show(t.stage, t.tracks) });`;
}

$("#op-form").addEventListener("input", updateCode);
$("#op-form").addEventListener("submit", (event) => {
  event.preventDefault();
  start();
});

async function boost(input, button) {
  const content = input.value.trim() || input.placeholder;
  button.disabled = true;
  button.textContent = "Boosting…";
  try {
    const boosted = await client.boostStyle({ content }, callOptions());
    if (boosted.result) {
      input.value = boosted.result;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }
    refreshCredits();
  } catch (error) {
    if (error instanceof ValidationError) showFieldError({ field: input.name, message: error.message });
    else showError(error);
  } finally {
    button.disabled = false;
    button.textContent = "✦ Boost";
  }
}

// ---- The task: timeline, tracks, covers, WAV -----------------------------------------------------

const STAGES = ["pending", "text", "first", "complete"];
let task = null;

function resetTask(taskId, started) {
  task?.abort.abort();
  task = { id: taskId, started, abort: new AbortController(), tracks: new Map(), seen: new Set(), autoplayed: false };
  $("#task-empty").hidden = true;
  $("#task").hidden = false;
  $("#task-id").textContent = taskId;
  $("#tracks").replaceChildren();
  $("#extras").hidden = true;
  $("#covers").replaceChildren();
  $("#covers-status").textContent = "";
  $("#covers-btn").disabled = false;
  for (const li of $("#timeline").children) {
    li.dataset.state = "";
    $("time", li).textContent = "";
  }
  markStage("pending");
}

function markStage(stage) {
  if (!task || task.seen.has(stage)) return;
  task.seen.add(stage);
  const elapsed = ((performance.now() - task.started) / 1000).toFixed(1);
  const index = STAGES.indexOf(stage);
  for (const li of $("#timeline").children) {
    const i = STAGES.indexOf(li.dataset.stage);
    if (stage === "error") {
      if (li.dataset.state === "active") li.dataset.state = "failed";
      continue;
    }
    if (i < index && li.dataset.state !== "done") {
      li.dataset.state = li.dataset.state === "active" ? "done" : "skipped";
      if (li.dataset.state === "skipped") $("time", li).textContent = "skipped";
    }
    if (i === index) {
      li.dataset.state = stage === "complete" ? "done" : "active";
      const time = $("time", li);
      time.textContent = `+${elapsed} s`;
      time.dateTime = new Date().toISOString();
      time.title = new Date().toLocaleTimeString();
    }
  }
}

function logPolled(family, text) {
  const time = new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  $("#polled").append(el("li", {}, el("time", { textContent: time }), el("span", { className: `tag fam-${family}`, textContent: family }), ` ${text}`));
  $("#polled").lastElementChild.scrollIntoView({ block: "nearest" });
}

async function start() {
  clearFieldErrors();
  const op = OPS[currentOp];
  const request = collect();
  const go = $("#go");
  go.disabled = true;
  go.classList.add("busy");
  try {
    // Validation happens inside the call, before anything is sent: a ValidationError names the field.
    const { taskId } = await client[op.method](request, callOptions());
    resetTask(taskId, performance.now());
    logPolled("music", `created ${taskId.slice(0, 8)}… by ${op.method}`);
    refreshCredits();
    watchInbox();
    go.disabled = false;
    go.classList.remove("busy");
    $("#task-card").scrollIntoView({ block: "start", behavior: "smooth" });
    await follow(taskId);
  } catch (error) {
    if (error instanceof ValidationError) showFieldError(error);
    else showError(error);
  } finally {
    go.disabled = false;
    go.classList.remove("busy");
  }
}

/** Brisk polling against the local emulator; the service's own recommendation (30 s at most) elsewhere. */
function pollSchedule() {
  const local = /^(127\.|localhost|\[::1\])/.test(new URL(settings.baseUrl).host);
  return local ? { minIntervalMs: 400, maxIntervalMs: 1200 } : { minIntervalMs: 3000, maxIntervalMs: 30000 };
}

async function follow(taskId) {
  const mine = task;
  $("#task-state").textContent = "waiting for the service…";
  try {
    const final = await client.waitForTask(taskId, {
      signal: mine.abort.signal,
      ...pollSchedule(),
      onProgress: (update) => {
        if (mine !== task) return;
        const record = update?.record ?? update;
        logPolled("music", `${record.stage} (${record.status ?? record.state})`);
        showRecord(record);
      },
    });
    if (mine === task) showRecord(final);
  } catch (error) {
    if (mine !== task) return;
    if (error instanceof TaskFailedError || error.kind === "task_failed") {
      markStage("error");
      $("#task-state").textContent = `failed: ${error.errorMessage || error.taskStatus || error.message}`;
      logPolled("music", `failed (${error.taskStatus ?? "error"})`);
    }
    showError(error);
  }
}

function showRecord(record) {
  if (record.stage && record.stage !== "error") markStage(record.stage);
  const words = { pending: "queued", text: "arrangement written, making audio…", first: "first track ready, finishing the rest…", complete: "done", error: "failed" };
  $("#task-state").textContent = words[record.stage] ?? record.state;
  for (const track of record.tracks ?? []) showTrack(track);
  if (record.stage === "complete") {
    $("#extras").hidden = false;
    refreshTrackList();
  }
}

function showTrack(track) {
  let card = task.tracks.get(track.id);
  if (!card) {
    card = trackCard(track);
    task.tracks.set(track.id, card);
    $("#tracks").append(card.root);
  }
  card.update(track);
  if (!task.autoplayed && card.src) {
    task.autoplayed = true;
    card.audio.play().catch(() => card.root.classList.add("press-play"));
  }
}

function trackCard(track) {
  const img = el("img", { className: "art", alt: "", width: 96, height: 96, decoding: "async" });
  const title = el("h3", { className: "t-title" });
  const tags = el("p", { className: "t-tags small muted" });
  const dur = el("span", { className: "t-dur small" });
  const audio = el("audio", { controls: true, preload: "auto", className: "player" });
  const wavBtn = el("button", { type: "button", className: "btn small", textContent: "Convert to WAV" });
  const wavOut = el("span", { className: "small wav-out", ariaLive: "polite" });
  const extendBtn = el("button", { type: "button", className: "btn ghost small", textContent: "Extend this" });
  const root = el("article", { className: "track" },
    el("div", { className: "art-wrap" }, img),
    el("div", { className: "t-meta" }, title, tags, el("p", { className: "small muted" }, "Duration ", dur)),
    audio,
    el("div", { className: "t-actions" }, wavBtn, extendBtn, wavOut));
  root.dataset.id = track.id;
  const card = {
    root, audio, src: "", data: track,
    update(t) {
      card.data = { ...card.data, ...t };
      const d = card.data;
      title.textContent = d.title || "Untitled";
      tags.textContent = d.tags || "";
      dur.textContent = formatDuration(d.duration);
      if (d.imageUrl && img.src !== d.imageUrl) {
        img.src = d.imageUrl;
        img.alt = `Cover of ${d.title || "the track"}`;
      }
      const best = d.audioUrl || d.streamAudioUrl || "";
      // Keep a playing stream: switching the source would restart the song.
      if (best && (!card.src || (audio.paused && audio.currentTime === 0 && best !== card.src))) {
        card.src = best;
        audio.src = best;
      }
      audio.setAttribute("aria-label", `Play ${d.title || "track"}`);
    },
  };
  audio.addEventListener("loadedmetadata", () => {
    if (!Number.isFinite(card.data.duration)) dur.textContent = formatDuration(audio.duration);
  });
  wavBtn.addEventListener("click", () => convertWav(card, wavBtn, wavOut));
  extendBtn.addEventListener("click", () => {
    $(`#op-extend`).checked = true;
    selectOp("extend");
    $("#op-form").elements.audioId.value = card.data.id;
    updateCode();
    $("#op-form").elements.audioId.focus();
  });
  return card;
}

function refreshTrackList() {
  let list = $("#track-ids");
  if (!list) document.body.append(list = el("datalist", { id: "track-ids" }));
  list.replaceChildren(...[...task.tracks.values()].map((c) => el("option", { value: c.data.id, label: c.data.title ?? "" })));
}

async function convertWav(card, button, out) {
  button.disabled = true;
  out.textContent = "Converting…";
  try {
    const { taskId } = await client.convertToWav({ taskId: task.id, audioId: card.data.id, callBackUrl: settings.callBackUrl }, callOptions());
    logPolled("wav", `created ${taskId.slice(0, 8)}…`);
    watchInbox();
    refreshCredits();
    const wav = await client.waitForWav(taskId, {
      signal: task.abort.signal, ...pollSchedule(),
      onProgress: (u) => logPolled("wav", `${(u?.record ?? u).successFlag ?? (u?.record ?? u).state}`),
    });
    const url = wav.response?.audioWavUrl;
    out.replaceChildren(el("a", { href: url, className: "wav-link", download: `${card.data.title || "track"}.wav`, textContent: "⬇ Download WAV" }));
    button.hidden = true;
  } catch (error) {
    out.textContent = "";
    button.disabled = false;
    showError(error);
  }
}

$("#covers-btn").addEventListener("click", async () => {
  const button = $("#covers-btn");
  const status = $("#covers-status");
  button.disabled = true;
  status.textContent = "Asking for covers…";
  try {
    const { taskId } = await client.generateCover({ taskId: task.id, callBackUrl: settings.callBackUrl }, callOptions());
    logPolled("cover", `created ${taskId.slice(0, 8)}…`);
    watchInbox();
    refreshCredits();
    status.textContent = "Painting…";
    const cover = await client.waitForCover(taskId, {
      signal: task.abort.signal, ...pollSchedule(),
      onProgress: (u) => {
        const r = u?.record ?? u;
        logPolled("cover", `${r.state} (successFlag ${r.successFlag})`);
      },
    });
    status.textContent = `${cover.images.length} images, kept 14 days.`;
    $("#covers").replaceChildren(...cover.images.map((src, i) =>
      el("a", { href: src, target: "_blank", rel: "noopener" }, el("img", { src, alt: `Cover art, style ${i + 1}`, className: "cover", width: 240, height: 240 }))));
  } catch (error) {
    status.textContent = "";
    button.disabled = false;
    showError(error);
  }
});

// ---- Callbacks inbox ----------------------------------------------------------------------------

let inboxTimer = null;
let inboxSeen = 0;
let inboxUntil = 0;

/** Polls the emulator's inbox for a while after each new task: callbacks arrive as stages pass. */
function watchInbox() {
  inboxUntil = Date.now() + 120000;
  if (!inboxTimer) pollInbox();
}

async function pollInbox() {
  inboxTimer = null;
  try {
    const res = await fetch(settings.callBackUrl, { cache: "no-store" });
    if (res.ok) {
      const { items = [] } = await res.json();
      for (const item of items.slice(inboxSeen)) showCallback(item);
      inboxSeen = Math.max(inboxSeen, items.length);
      $("#callbacks-note").textContent = "";
    } else {
      $("#callbacks-note").textContent = `The callback URL answered ${res.status}: this panel reads the emulator's inbox.`;
    }
  } catch {
    $("#callbacks-note").textContent = "The callback URL cannot be read from this page (the real service posts to your server).";
  }
  if (Date.now() < inboxUntil) inboxTimer = setTimeout(pollInbox, 1000);
}

function callbackSummary(body) {
  if (typeof tunesmith.parseCallback === "function") {
    try {
      const event = tunesmith.parseCallback(body);
      return { family: event.family ?? event.kind ?? "music", what: event.stage ?? event.callbackType ?? event.state ?? "", taskId: event.taskId };
    } catch {
      // Shown raw below.
    }
  }
  const data = body?.data ?? {};
  if (data.callbackType) return { family: "music", what: data.callbackType, taskId: data.task_id };
  if ("audioWavUrl" in data) return { family: "wav", what: data.audioWavUrl ? "ready" : "failed", taskId: data.task_id };
  if (data.images || data.info?.images) return { family: "cover", what: "images", taskId: data.taskId ?? data.task_id };
  return { family: "other", what: body?.msg ?? "", taskId: data.task_id ?? data.taskId };
}

function showCallback(item) {
  let body = item.body;
  if (typeof body === "string") { try { body = JSON.parse(body); } catch { /* keep the text */ } }
  const { family, what, taskId } = callbackSummary(body);
  const time = new Date(item.at ?? Date.now()).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  const li = el("li", {},
    el("time", { textContent: time }),
    el("span", { className: `tag fam-${family}`, textContent: family }),
    ` ${what}${body?.code != null ? ` · code ${body.code}` : ""}${taskId ? ` · ${String(taskId).slice(0, 8)}…` : ""}`,
    el("details", {}, el("summary", { textContent: "body" }), el("pre", { textContent: JSON.stringify(body, null, 2) })));
  $("#callbacks").append(li);
  $("#cb-count").textContent = String($("#callbacks").children.length);
}

// ---- Start ----------------------------------------------------------------------------------------

async function main() {
  settings.baseUrl = (params.get("music") ?? defaultMusicUrl()).replace(/\/$/, "");
  settings.uploadUrl = (params.get("upload") ?? await discoverUploadUrl(settings.baseUrl)).replace(/\/$/, "");
  settings.callBackUrl = params.get("callback") ?? `${settings.baseUrl}/inbox/${INBOX}`;
  fillSettingsForm();
  makeClient();
  renderTabs();
  selectOp(currentOp);
  document.body.dataset.ready = "true";
  await refreshCredits();
}

main().catch(showError);
