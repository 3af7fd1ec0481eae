// The files a record of the service points at (tracks, stems, covers, WAV, video, uploads) and the
// texts it carries (lyrics), found once for both faces: the MCP server links or inlines them, the
// CLI saves them, where the generated `MEDIA` table (protocol/src/media.rs) says each record holds them.
import { MEDIA } from "./operations.generated.js";

const TYPES = {
  mp3: "audio/mpeg",
  wav: "audio/wav",
  m4a: "audio/mp4",
  ogg: "audio/ogg",
  flac: "audio/flac",
  mid: "audio/midi",
  mp4: "video/mp4",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
};

/** The extension of a URL's last path segment, lower case, or "" when it has none. */
export function extensionOf(url) {
  try {
    const name = new URL(url).pathname.split("/").pop() ?? "";
    const dot = name.lastIndexOf(".");
    return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
  } catch {
    return "";
  }
}

/** The MIME type a URL's extension names, or undefined. */
export const mimeTypeOf = (url) => TYPES[extensionOf(url)];

const isUrl = (v) => typeof v === "string" && /^https?:\/\//i.test(v);

/** The value at `path` (field names) in `value`, or undefined. */
const at = (value, path) => path.reduce((v, name) => (v && typeof v === "object" ? v[name] : undefined), value);

/** The table entry of `family`: a task family, or an operation whose answer is no task's record. */
const mediaOf = (family) => (Object.hasOwn(MEDIA, family) ? MEDIA[family] : { files: [], texts: [] });

/**
 * The files of a record, in order: `{ url, kind: "audio" | "image" | "video" | "file", id, title,
 * duration?, mimeType? }`. `family` is the task family of the record, or the operation's name for
 * records of no task (uploads). Where each record holds them is the generated `MEDIA` table.
 */
export function filesOf(family, record) {
  if (!record || typeof record !== "object") return [];
  for (const group of mediaOf(family).files) {
    const out = [];
    const add = (url, kind, id, title, extra = {}) => {
      if (!isUrl(url)) return;
      out.push({ url, kind, id: String(id ?? out.length + 1), title: title || String(id ?? ""), mimeType: mimeTypeOf(url), ...extra });
    };
    for (const place of group) {
      const found = place.at.length ? at(record, place.at) : record;
      if (place.urlFieldsExcept) {
        for (const [name, url] of Object.entries(found ?? {})) {
          if (name.endsWith("Url") && !place.urlFieldsExcept.includes(name)) add(url, place.kind, name.slice(0, -3), name.slice(0, -3));
        }
        continue;
      }
      const items = place.each ? (Array.isArray(found) ? found : []) : found ? [found] : [];
      items.forEach((item, i) => {
        const field = (name) => (name === null || !item || typeof item !== "object" ? undefined : item[name]);
        const url = place.url.length ? place.url.map(field).find(Boolean) : item;
        const named = (n, words) =>
          n.field !== undefined ? field(n.field) : n.task ? (place.each ? `${record.taskId}-${i + 1}` : record.taskId) : place.each ? `${words} ${i + 1}` : words;
        const mimeType = field(place.mimeType) || undefined;
        const kind = place.kind === "stored" ? (mimeType?.startsWith("image/") ? "image" : "file") : place.kind;
        const extra = {};
        if (place.duration) extra.duration = field(place.duration);
        if (place.tags) extra.tags = field(place.tags);
        if (place.mimeType) extra.mimeType = mimeType;
        if (place.size) extra.size = field(place.size);
        add(url, kind, named(place.id, place.id.words), named(place.title, place.title.words), extra);
      });
    }
    if (out.length) return out;
  }
  return [];
}

/** The texts of a record worth reading as text: lyrics, and timestamped lyrics as words. */
export function textsOf(family, record) {
  const out = [];
  for (const place of mediaOf(family).texts) {
    const items = at(record, place.at);
    if (!Array.isArray(items)) continue;
    if (place.word) {
      out.push(items.map((w) => w?.[place.word]).join(" ").replace(/\n /g, "\n"));
    } else {
      for (const l of items) if (l?.[place.text]) out.push(l[place.title] ? `${l[place.title]}\n\n${l[place.text]}` : l[place.text]);
    }
  }
  return out;
}

/** The task families whose records hold audio (the MCP server offers to inline it). */
export const FAMILIES_WITH_AUDIO = new Set(
  Object.entries(MEDIA).flatMap(([family, m]) => (m.files.flat().some((f) => f.kind === "audio") ? [family] : [])),
);
