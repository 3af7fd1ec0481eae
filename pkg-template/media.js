// The files a record of the service points at (tracks, stems, covers, WAV, video, uploads) and the
// texts it carries (lyrics), found once for both faces: the MCP server links or inlines them, the
// CLI saves them.

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

/**
 * The files of a record, in order: `{ url, kind: "audio" | "image" | "video" | "file", id, title,
 * duration?, mimeType? }`. `family` is the task family of the record, or the operation's name for
 * records of no task (uploads).
 */
export function filesOf(family, record) {
  if (!record || typeof record !== "object") return [];
  const out = [];
  const add = (url, kind, id, title, extra = {}) => {
    if (!isUrl(url)) return;
    out.push({ url, kind, id: String(id ?? out.length + 1), title: title || String(id ?? ""), mimeType: mimeTypeOf(url), ...extra });
  };
  const response = record.response ?? {};
  switch (family) {
    case "music":
      for (const t of record.tracks ?? []) {
        add(t.audioUrl || t.streamAudioUrl, "audio", t.id, t.title, { duration: t.duration, tags: t.tags });
      }
      break;
    case "recovery":
      for (const t of record.tracks ?? []) add(t.audio_url, "audio", t.id, t.title);
      break;
    case "wav":
      add(response.audioWavUrl, "audio", record.taskId, "wav", { mimeType: "audio/wav" });
      break;
    case "video":
      add(response.videoUrl, "video", record.taskId, "video", { mimeType: "video/mp4" });
      break;
    case "cover":
      (response.images ?? []).forEach((url, i) => add(url, "image", `${record.taskId}-${i + 1}`, `cover ${i + 1}`));
      break;
    case "vocal_separation":
      if (Array.isArray(response.originData) && response.originData.length) {
        for (const s of response.originData) add(s.audio_url, "audio", s.id, s.stem_type_group_name, { duration: s.duration });
      } else {
        for (const [name, url] of Object.entries(response)) {
          if (name !== "originUrl" && name.endsWith("Url")) add(url, "audio", name.slice(0, -3), name.slice(0, -3));
        }
      }
      break;
    case "uploadFile":
    case "uploadFromUrl":
    case "uploadBase64":
      add(record.downloadUrl, record.mimeType?.startsWith("image/") ? "image" : "file", record.fileId, record.fileName, {
        mimeType: record.mimeType || undefined,
        size: record.fileSize,
      });
      break;
  }
  return out;
}

/** The texts of a record worth reading as text: lyrics, and timestamped lyrics as words. */
export function textsOf(family, record) {
  if (family === "lyrics") {
    return (record?.lyrics ?? []).filter((l) => l.text).map((l) => (l.title ? `${l.title}\n\n${l.text}` : l.text));
  }
  if (family === "getTimestampedLyrics" && Array.isArray(record?.alignedWords)) {
    return [record.alignedWords.map((w) => w.word).join(" ").replace(/\n /g, "\n")];
  }
  return [];
}
