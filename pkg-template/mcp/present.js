// A record of the service as an MCP tool result: the record itself as `structuredContent` (and as
// JSON text, for hosts that read only text), each track, stem or file as a `resource_link`, covers
// as images, lyrics as text, and the audio inline when the caller asks for it.
import { filesOf, textsOf } from "../media.js";

function base64(bytes) {
  if (typeof bytes.toBase64 === "function") return bytes.toBase64();
  if (typeof Buffer === "function") return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** The bytes at `url`, or null when they cannot be had within `budget` bytes. */
async function download(fetch, url, budget, signal) {
  try {
    const response = await fetch(url, { signal, redirect: "follow" });
    if (!response.ok) return null;
    const declared = Number(response.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > budget) {
      await response.body?.cancel();
      return null;
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.byteLength > budget) return null;
    const type = response.headers.get("content-type")?.split(";")[0].trim();
    return { bytes, type };
  } catch {
    return null;
  }
}

function link(file) {
  const details = [
    file.duration !== undefined ? `${Number(file.duration).toFixed(1)} s` : null,
    file.tags || null,
    file.kind,
  ].filter(Boolean);
  const out = { type: "resource_link", uri: file.url, name: file.id, title: file.title, description: details.join(", ") };
  if (file.mimeType) out.mimeType = file.mimeType;
  if (file.size !== undefined) out.size = file.size;
  if (file.duration !== undefined) out._meta = { "tunesmith/duration": file.duration };
  return out;
}

const count = (n) => (Number.isFinite(Number(n)) ? Number(n).toLocaleString("en-US") : String(n));

/** The head line of a record of no task: what the call found, in words. */
function said(family, record) {
  switch (family) {
    case "getCredits":
      return `${count(record.credits)} credits`;
    case "uploadFile":
    case "uploadFromUrl":
    case "uploadBase64":
      return `uploaded ${record.fileName ?? record.originalName ?? "a file"}${record.fileSize !== undefined ? ` (${count(record.fileSize)} bytes)` : ""}` +
        (record.expiresAt ? `, its link valid until ${record.expiresAt}` : "");
    case "generatePersona":
      return `persona ${record.name ?? ""} (${record.personaId})`;
    case "checkVoice":
      return record.isAvailable ? "the voice is available" : "the voice is not available";
    case "getTimestampedLyrics":
      return `${count(record.alignedWords?.length ?? 0)} timed words`;
    default: {
      const scalars = Object.entries(record).filter(([, v]) => v !== null && typeof v !== "object").slice(0, 4);
      return `${family}${scalars.length ? `: ${scalars.map(([k, v]) => `${k} ${typeof v === "number" ? count(v) : v}`).join(", ")}` : ""}`;
    }
  }
}

function summary(family, record, files, running) {
  let head;
  if (record && typeof record === "object" && !record.taskId) {
    head = said(family, record);
  } else {
    const state = record?.state ? `: ${record.state}${record.stage && record.stage !== record.state ? ` (${record.stage})` : ""}` : "";
    head = `${record?.taskId ? `${family} task ${record.taskId}` : family}${state}${running ? ", still running" : ""}`;
  }
  const lines = [head];
  for (const f of files) lines.push(`- ${f.title}${f.duration !== undefined ? ` (${Number(f.duration).toFixed(1)} s)` : ""}: ${f.url}`);
  return lines.join("\n");
}

/** The result of a call that succeeded. */
export async function toolResult(family, record, { running, note, inlineAudio, maxInlineBytes, fetch, signal }) {
  const files = filesOf(family, record);
  const content = [{ type: "text", text: summary(family, record, files, running) + (note ? `\n${note}` : "") }];
  let budget = maxInlineBytes;
  for (const file of files) {
    if (file.kind === "image") {
      const got = await download(fetch, file.url, budget, signal);
      if (got) {
        budget -= got.bytes.byteLength;
        content.push({ type: "image", data: base64(got.bytes), mimeType: got.type ?? file.mimeType ?? "image/png" });
        continue;
      }
    }
    content.push(link(file));
    if (inlineAudio && file.kind === "audio") {
      const got = await download(fetch, file.url, budget, signal);
      if (got) {
        budget -= got.bytes.byteLength;
        content.push({ type: "audio", data: base64(got.bytes), mimeType: got.type ?? file.mimeType ?? "audio/mpeg" });
      } else {
        content.push({ type: "text", text: `${file.title}: not inlined (past ${maxInlineBytes} bytes in all, or not fetched); use its link` });
      }
    }
  }
  for (const text of textsOf(family, record)) content.push({ type: "text", text });
  const structured = record && typeof record === "object" && !Array.isArray(record) ? record : { value: record };
  content.push({ type: "text", text: JSON.stringify(structured) });
  return { content, structuredContent: structured };
}

/** The result of a call that failed: the Client's own error, its kind and field, as the answer. */
export function errorResult(error, context) {
  const parts = [];
  if (error) {
    const where = [error.kind, error.field ? `field ${error.field}` : null, error.rule ? `rule ${error.rule}` : null]
      .filter(Boolean)
      .join(", ");
    parts.push(`${error.name ?? "Error"}${where ? ` (${where})` : ""}: ${error.message ?? error}`);
    if (error.kind === "task_failed") {
      parts.push(`task ${error.taskId}: ${error.taskStatus ?? ""} ${error.errorMessage ?? ""}`.trim());
    }
  }
  if (context) parts.push(context);
  return { content: [{ type: "text", text: parts.join("\n") }], isError: true };
}

/** Base64 of a string's UTF-8 bytes, where Node, Workers and browsers all run. */
const base64Text = (text) => base64(new TextEncoder().encode(text));

/**
 * The spellings of `secret` to blank out of an answer: itself (in any case, matched by the caller),
 * URL-encoded, and Base64 (standard and URL-safe) at each of the three alignments it can take
 * inside a longer Base64 text (`Basic` credentials, an echoed `Authorization: Bearer ...` header):
 * the characters that depend on the secret's bytes alone.
 */
function spellings(secret) {
  const out = new Set([secret, encodeURIComponent(secret)]);
  const bytes = new TextEncoder().encode(secret);
  for (const lead of [0, 1, 2]) {
    const padded = new Uint8Array(lead + bytes.length);
    padded.set(bytes, lead);
    const b64 = base64(padded);
    const middle = b64.slice(Math.ceil((8 * lead) / 6), Math.floor((8 * (lead + bytes.length)) / 6));
    if (middle.length >= 8) {
      out.add(middle);
      out.add(middle.replace(/\+/g, "-").replace(/\//g, "_"));
    }
  }
  out.add(base64Text(secret));
  return [...out].filter((s) => s.length >= 4);
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A function that returns a tool result with every secret blanked out of its text and of the strings
 * of its `structuredContent` (inline audio and image data aside): the configured API key must never
 * reach the agent, even when a service or proxy echoes the `Authorization` header into an error.
 */
export function scrubber(secrets) {
  const list = (secrets ?? []).filter((s) => typeof s === "string" && s.length >= 4);
  if (list.length === 0) return (result) => result;
  const pattern = new RegExp(list.flatMap(spellings).sort((a, b) => b.length - a.length).map(escape).join("|"), "gi");
  const clean = (v) => {
    if (typeof v === "string") return v.replace(pattern, "[redacted]");
    if (Array.isArray(v)) return v.map(clean);
    if (v && typeof v === "object") {
      const out = {};
      for (const [k, x] of Object.entries(v)) out[k] = k === "data" && (v.type === "audio" || v.type === "image") ? x : clean(x);
      return out;
    }
    return v;
  };
  return clean;
}
