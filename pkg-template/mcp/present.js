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

function summary(family, record, files, running) {
  const head = record?.taskId ? `${family} task ${record.taskId}` : family;
  const state = record?.state ? `: ${record.state}${record.stage && record.stage !== record.state ? ` (${record.stage})` : ""}` : "";
  const lines = [`${head}${state}${running ? ", still running" : ""}`];
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
