// What the CLI shows: on a terminal, a progress line redrawn in place on stderr (stages, upload
// bytes) and a short summary on stdout; when piped (or with --json), one JSON object per line on
// stdout, each with an `event`. Whatever the service said passes through `safe` on its way out: no
// control character of its reaches the terminal, and the key never leaves, however it was echoed.
import { stepsOf } from "../follow.js";

const bytes = (n) =>
  n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MB` : n >= 1 << 10 ? `${(n / (1 << 10)).toFixed(0)} KB` : `${n} B`;

/**
 * C0 controls but the newline, DEL, C1 controls, and the bidi marks, embeddings, overrides and
 * isolates: in a title or a message of the service's they would set the window's title, clear the
 * screen, recolour it or reorder what it shows. Each is written as its JSON escape (`\u001b`), as
 * JSON.stringify writes the C0 ones; in a JSON line the text means the same.
 */
const CONTROLS = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
export const escapeControls = (text) => text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/**
 * Replaces the key wherever a service or a proxy echoed it: as it is, in any case, URL-encoded, and
 * Base64 (plain or URL-safe) at each of the three alignments a longer encoded text (`Basic`,
 * `Bearer <key>`) puts it at; of those, the characters that depend on the key's bytes alone.
 */
export function keyScrubber(key) {
  if (!key || key.length < 4) return (text) => text;
  const bytes = Buffer.from(key);
  const forms = new Set([key, encodeURIComponent(key)]);
  for (const shift of [0, 1, 2]) {
    const b64 = Buffer.concat([Buffer.alloc(shift), bytes]).toString("base64");
    const part = b64.slice(Math.ceil((shift * 4) / 3), Math.floor(((shift + bytes.length) * 4) / 3));
    forms.add(part).add(part.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  const escaped = [...forms].filter((f) => f.length >= 4).map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(escaped.sort((a, b) => b.length - a.length).join("|"), "gi");
  return (text) => text.replace(pattern, "[redacted]");
}

/** A record in words, for a terminal: `name: value` a line, what it holds indented below its name. */
function words(value, indent = "") {
  if (value === null || typeof value !== "object") return [`${indent}${value}`];
  const lines = [];
  for (const [k, v] of Object.entries(value)) {
    const name = Array.isArray(value) ? "-" : `${k}:`;
    if (v !== null && typeof v === "object" && Object.keys(v).length) lines.push(`${indent}${name}`, ...words(v, `${indent}  `));
    else lines.push(`${indent}${name} ${typeof v === "string" ? v : JSON.stringify(v)}`);
  }
  return lines.length ? lines : [`${indent}(empty)`];
}

export function createOutput({ json, stdout = process.stdout, stderr = process.stderr, key = process.env.TUNESMITH_API_KEY }) {
  const live = !json && stderr.isTTY;
  const scrub = keyScrubber(key);
  const safe = (text) => escapeControls(scrub(text));
  const err = (text) => stderr.write(safe(text));
  const out = (text) => stdout.write(safe(text));
  let line = "";
  const draw = (text) => {
    if (live) {
      stderr.write(`\r\x1b[2K${safe(text)}`);
      line = text;
    } else if (!json) {
      err(`${text}\n`);
    }
  };
  const settle = () => {
    if (live && line) stderr.write("\n");
    line = "";
  };
  const emit = (event) => out(`${JSON.stringify(event)}\n`);
  const started = Date.now();
  /** The ranks of the task's steps reached (follow.js): its first step is drawn as `created`. */
  let reached = new Set();
  return {
    json,
    upload(name, loaded, total) {
      if (json) return emit({ event: "upload", file: name, loaded, total });
      const width = 24;
      const done = total ? Math.round((loaded / total) * width) : width;
      draw(`uploading ${name}  [${"#".repeat(done)}${"-".repeat(width - done)}]  ${bytes(loaded)} / ${bytes(total)}`);
    },
    created(operation, taskId) {
      if (json) return emit({ event: "created", operation, taskId });
      reached = new Set([0]);
      draw(`${operation}  task ${taskId}  created`);
    },
    /** A record the follower reported, at its `rank`. */
    progress(operation, family, record, rank) {
      if (json) return emit({ event: "progress", taskId: record?.taskId, state: record?.state, stage: record?.stage });
      reached.add(rank);
      const names = stepsOf(family).map((s, i) => (i === 0 ? "created" : s));
      const marks = names.map((s, i) => (reached.has(i) ? `✔ ${s}` : `· ${s}`)).join("  ");
      draw(`${operation}  task ${record?.taskId ?? ""}  ${marks}  ${Math.round((Date.now() - started) / 1000)} s`);
    },
    result(operation, record, files) {
      settle();
      if (json) return emit({ event: "result", operation, record });
      if (files.length === 0) {
        out(`${words(record).join("\n")}\n`);
        return;
      }
      const head = record?.taskId ? `task ${record.taskId}: ${record.state ?? "done"}` : operation;
      out(`${head}\n`);
      for (const f of files) {
        const duration = f.duration !== undefined ? `  ${Number(f.duration).toFixed(1)} s` : "";
        out(`  ${f.title}${duration}  ${f.url}\n`);
      }
    },
    saved(path, url) {
      if (json) return emit({ event: "saved", path, url });
      out(`saved ${path}\n`);
    },
    interrupted(taskId, resume) {
      settle();
      if (json) return emit({ event: "interrupted", taskId, resume });
      err(`stopped waiting; task ${taskId} goes on. Resume with:\n  ${resume}\n`);
    },
    /** `retryAfterMs`: how long a rate limit or maintenance asked to wait, when it said. */
    error(error, exitCode, hint, retryAfterMs = null) {
      settle();
      const body = {
        event: "error",
        name: error?.name ?? "Error",
        kind: error?.kind ?? null,
        field: error?.field ?? null,
        rule: error?.rule ?? null,
        code: error?.code ?? null,
        taskId: error?.taskId ?? null,
        message: error?.message ?? String(error),
        exitCode,
        ...(retryAfterMs !== null ? { retryAfterSeconds: retryAfterMs / 1000 } : {}),
      };
      if (json) return emit(hint ? { ...body, hint } : body);
      const where = [body.kind, body.field ? `field ${body.field}` : null].filter(Boolean).join(", ");
      err(`error${where ? ` (${where})` : ""}: ${body.message}\n${hint ? `${hint}\n` : ""}`);
    },
  };
}
