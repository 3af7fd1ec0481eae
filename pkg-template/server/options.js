// The options of `createCompanion`, read and checked once, at start: a wrong option fails there,
// with a message naming it, and never later in a request.
import { ROUTES } from "./routes.js";
import { memoryStore } from "./store-memory.js";

const DEFAULT_BASE_URL = "https://api.sunoapi.org";
const DEFAULT_UPLOAD_URL = "https://sunoapiorg.redpandaai.co";

export const DEFAULT_LIMITS = Object.freeze({
  windowMs: 60_000,
  requestsPerWindow: 120,
  tasksInFlight: 10,
  uploadBytes: 100 * 1024 * 1024,
});

/** Longest JSON body the companion reads (a Base64 upload of 10 MB is some 13.4 MB of text). */
export const MAX_JSON_BYTES = 16 * 1024 * 1024;
/** Longest callback body: the service's are a few kilobytes. */
export const MAX_CALLBACK_BYTES = 1024 * 1024;

export function readOptions(o) {
  if (!o || typeof o !== "object") throw new TypeError("createCompanion takes an options object");
  if (typeof o.apiKey !== "string" || !o.apiKey.trim()) {
    // The message never quotes the value: it may be a key.
    throw new TypeError("createCompanion: `apiKey` must be the service key, a non-empty string");
  }
  const url = (name, fallback) => {
    const v = o[name] ?? fallback;
    if (typeof v !== "string") throw new TypeError(`createCompanion: \`${name}\` must be a URL string`);
    try {
      const u = new URL(v);
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error();
    } catch {
      throw new TypeError(`createCompanion: \`${name}\` must be an http(s) URL`);
    }
    return v.replace(/\/+$/, "");
  };
  if (o.publicUrl === undefined) {
    throw new TypeError(
      "createCompanion: `publicUrl` is needed: the address where the service reaches this companion with callbacks",
    );
  }
  if (typeof o.authorize !== "function") {
    throw new TypeError("createCompanion: `authorize(request)` must be a function returning the user id (or null)");
  }
  const known = new Set(ROUTES.map((r) => r.operation));
  const allow = o.allow === undefined ? [...known] : o.allow;
  if (!Array.isArray(allow) || allow.some((a) => !known.has(a))) {
    const bad = Array.isArray(allow) ? allow.filter((a) => !known.has(a)).join(", ") : String(allow);
    throw new TypeError(`createCompanion: \`allow\` must list operations among ${[...known].join(", ")}; unknown: ${bad}`);
  }
  const limits = { ...DEFAULT_LIMITS, ...(o.limits ?? {}) };
  for (const [name, v] of Object.entries(limits)) {
    if (!(Number.isFinite(v) && v > 0)) throw new TypeError(`createCompanion: \`limits.${name}\` must be a positive number`);
  }
  const origins = o.origins ?? [];
  if (!Array.isArray(origins) || origins.some((x) => typeof x !== "string")) {
    throw new TypeError("createCompanion: `origins` must be an array of origins such as https://app.example.com");
  }
  if (o.mcp !== undefined && typeof o.mcp !== "boolean" && (typeof o.mcp !== "object" || o.mcp === null)) {
    throw new TypeError("createCompanion: `mcp` must be true, false or the options of tunesmith/mcp's createMcpServer");
  }
  const publicUrl = url("publicUrl");
  return {
    apiKey: o.apiKey,
    baseUrl: url("baseUrl", DEFAULT_BASE_URL),
    uploadUrl: url("uploadUrl", DEFAULT_UPLOAD_URL),
    serviceSegment: o.serviceSegment ?? "suno",
    publicUrl,
    prefix: new URL(publicUrl).pathname.replace(/\/+$/, ""),
    authorize: o.authorize,
    allow: new Set(allow),
    limits,
    store: o.store ?? memoryStore(),
    origins: new Set(origins.map((x) => x.replace(/\/+$/, ""))),
    forwardHeaders: (o.forwardHeaders ?? []).map((h) => String(h).toLowerCase()),
    log: typeof o.log === "function" ? o.log : (line) => console.warn(line),
    fetch: o.fetch ?? ((...args) => globalThis.fetch(...args)),
    eventBacklog: o.eventBacklog ?? 500,
    retentionMs: o.retentionMs ?? 24 * 60 * 60 * 1000,
    heartbeatMs: o.heartbeatMs ?? 15_000,
    mcp: o.mcp || null,
  };
}
