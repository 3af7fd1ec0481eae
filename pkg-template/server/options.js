// The options of `createCompanion`, their defaults, and the context read from them once, at start:
// a wrong option fails there, with a message naming it, and never later in a request.
import { ROUTES } from "./routes.js";
import { memoryStore } from "./store-memory.js";
import { scrubber } from "./secrets.js";
import { hostTest } from "./cors.js";
import { upstream } from "./upstream.js";

/** @typedef {import("./store.js").CompanionStore} CompanionStore */
/** @typedef {import("./routes.js").OperationName} OperationName */

/** The service's music host, unless `baseUrl` names another. */
export const DEFAULT_BASE_URL = "https://api.sunoapi.org";
/** The service's upload host, unless `uploadUrl` names another. */
export const DEFAULT_UPLOAD_URL = "https://sunoapiorg.redpandaai.co";

/** The limits a companion holds unless `limits` says otherwise. */
export const DEFAULT_LIMITS = Object.freeze(
  /** @type {const} */ ({
    windowMs: 60000,
    requestsPerWindow: 120,
    tasksInFlight: 10,
    eventStreams: 10,
    requestsInFlight: 16,
    totalRequestsInFlight: 1024,
    bodyBytesInFlight: 33554432,
    uploadBytes: 104857600,
  }),
);

/** The other defaults of `createCompanion`'s options. */
export const DEFAULTS = Object.freeze(
  /** @type {const} */ ({
    serviceSegment: "suno",
    eventBacklog: 500,
    retentionMs: 86400000,
    heartbeatMs: 15000,
  }),
);

/** Operations a page may not call unless `allow` lists them: the account's balance is not a user's. */
export const NOT_ALLOWED_BY_DEFAULT = Object.freeze(/** @type {const} */ (["getCredits"]));

/** The operations a companion forwards unless `allow` says otherwise: every one but `NOT_ALLOWED_BY_DEFAULT`. */
export const DEFAULT_ALLOW = Object.freeze(
  ROUTES.map((r) => r.operation).filter((op) => !(/** @type {readonly string[]} */ (NOT_ALLOWED_BY_DEFAULT)).includes(op)),
);

/** Longest JSON body of any operation but `uploadBase64` (prompts and lyrics are a few KB). */
export const MAX_JSON_BYTES = 64 * 1024;
/** Longest JSON body of `uploadBase64`: 10 MB of file is some 13.4 MB of Base64 text. */
export const MAX_BASE64_JSON_BYTES = 14 * 1024 * 1024;
/** Longest callback body: the service's are a few kilobytes. */
export const MAX_CALLBACK_BYTES = 1024 * 1024;

/**
 * Limits, per user unless said otherwise. Past a limit the page gets a 429 (or a 503 for the
 * companion-wide ones) with `Retry-After` and a body naming the limit; past `uploadBytes`, a 413.
 * Defaults: `DEFAULT_LIMITS`.
 * @typedef {object} CompanionLimits
 * @property {number} [windowMs] Length of the request-counting window, in milliseconds.
 * @property {number} [requestsPerWindow] Requests a user may send per window, every operation and
 *   every event stream opened counted.
 * @property {number} [tasksInFlight] Tasks a user may have running at once (until their final
 *   callback, or an hour); counted and taken in one step of the store.
 * @property {number} [eventStreams] Event streams a user may hold open at once, on this instance.
 * @property {number} [requestsInFlight] Requests of a user this instance handles at once.
 * @property {number} [totalRequestsInFlight] Requests of all users this instance handles at once.
 * @property {number} [bodyBytesInFlight] Bytes of JSON bodies this instance holds at once, all users
 *   together (a Base64 upload's is the large one).
 * @property {number} [uploadBytes] Largest stream upload, in bytes.
 */

/**
 * What `authorize` may answer besides a user id.
 * @typedef {object} CompanionRefusal
 * @property {401 | 403} status
 * @property {string} [message]
 */

/**
 * @typedef {object} CompanionOptions
 * @property {string} apiKey The service key. It never appears in an answer, a header, a log line or
 *   an error, in any spelling (upper or lower case, Base64, URL-encoded).
 * @property {string} [baseUrl] Music host. Default `DEFAULT_BASE_URL`.
 * @property {string} [uploadUrl] Upload host. Default `DEFAULT_UPLOAD_URL`.
 * @property {string} [serviceSegment] Service segment in the cover and recovery paths. Default
 *   `DEFAULTS.serviceSegment`.
 * @property {string} publicUrl Where the service (and pages) reach this companion, e.g.
 *   `https://app.example.com/tunesmith`. Its path is where the handler serves; callbacks go to
 *   `{publicUrl}/callbacks/<token>`; its origin is the companion's own, for CORS. The request's
 *   `Host` header builds nothing, and must name this host (or one of `allowedHosts`).
 * @property {(request: Request) => string | null | undefined | CompanionRefusal | Promise<string | null | undefined | CompanionRefusal>} authorize
 *   Your own session check: the user id of the request's caller, or `null` (401), or a refusal.
 *   Users never see each other's tasks, records, tracks, personas, voices or events.
 * @property {readonly OperationName[]} [allow] The operations a page may call (the client's method names). Default
 *   `DEFAULT_ALLOW`: all but `getCredits`.
 * @property {CompanionLimits} [limits]
 * @property {CompanionStore} [store] Default `memoryStore()`: one process, nothing kept across a
 *   restart. `fileStore({ path })` survives restarts; several instances share a `redisStore`.
 * @property {string[]} [origins] Origins besides `publicUrl`'s allowed to call the companion (CORS).
 *   Default none.
 * @property {string[]} [allowedHosts] Host headers besides `publicUrl`'s the companion answers, as
 *   a proxy in front of it may send them (`localhost:3000`); any other Host is refused with a 421.
 *   Default none.
 * @property {string[]} [forwardHeaders] Request headers passed on to the service (lower case).
 *   Default none.
 * @property {(line: string) => void} [log] Receives the companion's log lines (with the key and
 *   every callback token replaced by `[redacted]`). Default `console.warn`.
 * @property {typeof fetch} [fetch] A fetch for the requests to the service. Default: in Node, a
 *   keep-alive connection pool of undici's; elsewhere the global `fetch`.
 * @property {number} [eventBacklog] Events kept per user for pages that reconnect. Default
 *   `DEFAULTS.eventBacklog`.
 * @property {number} [retentionMs] How long owners, tokens, references and events are kept, in
 *   milliseconds. Default `DEFAULTS.retentionMs` (a day).
 * @property {number} [heartbeatMs] Interval of the event stream's keep-alive comment, in
 *   milliseconds; a stream whose page has read nothing for two of them is closed. Default
 *   `DEFAULTS.heartbeatMs`.
 * @property {boolean | Record<string, unknown>} [mcp] `true` (or the options of tunesmith/mcp's
 *   `createMcpServer`) serves agents at `{publicUrl}/mcp`: each tool call comes back through this
 *   companion as its caller, under the same rules. Default none.
 */

/**
 * @param {CompanionOptions} o
 */
export function readOptions(o) {
  if (!o || typeof o !== "object") throw new TypeError("createCompanion takes an options object");
  if (typeof o.apiKey !== "string" || !o.apiKey.trim()) {
    // The message never quotes the value: it may be a key.
    throw new TypeError("createCompanion: `apiKey` must be the service key, a non-empty string");
  }
  /** @param {"baseUrl" | "uploadUrl" | "publicUrl"} name @param {string} [fallback] */
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
  const allow = o.allow === undefined ? DEFAULT_ALLOW : o.allow;
  if (!Array.isArray(allow) || allow.some((a) => !known.has(a))) {
    const bad = Array.isArray(allow) ? allow.filter((a) => !known.has(a)).join(", ") : String(allow);
    throw new TypeError(`createCompanion: \`allow\` must list operations among ${[...known].join(", ")}; unknown: ${bad}`);
  }
  /** @type {Record<keyof typeof DEFAULT_LIMITS, number>} */
  const limits = { ...DEFAULT_LIMITS, ...(o.limits ?? {}) };
  for (const [name, v] of Object.entries(limits)) {
    if (!(name in DEFAULT_LIMITS)) {
      throw new TypeError(`createCompanion: \`limits.${name}\` is not a limit; limits: ${Object.keys(DEFAULT_LIMITS).join(", ")}`);
    }
    if (!(typeof v === "number" && v > 0 && !Number.isNaN(v))) {
      throw new TypeError(`createCompanion: \`limits.${name}\` must be a positive number`);
    }
  }
  const origins = o.origins ?? [];
  if (!Array.isArray(origins) || origins.some((x) => typeof x !== "string")) {
    throw new TypeError("createCompanion: `origins` must be an array of origins such as https://app.example.com");
  }
  /** @param {"eventBacklog" | "retentionMs" | "heartbeatMs"} name */
  const positive = (name) => {
    const v = o[name] ?? DEFAULTS[name];
    if (!(typeof v === "number" && Number.isFinite(v) && v > 0)) {
      throw new TypeError(`createCompanion: \`${name}\` must be a positive number`);
    }
    return v;
  };
  if (o.mcp !== undefined && typeof o.mcp !== "boolean" && (typeof o.mcp !== "object" || o.mcp === null)) {
    throw new TypeError("createCompanion: `mcp` must be true, false or the options of tunesmith/mcp's createMcpServer");
  }
  const publicUrl = url("publicUrl");
  const scrub = scrubber(o.apiKey);
  const log = typeof o.log === "function" ? o.log : (/** @type {string} */ line) => console.warn(line);
  return {
    apiKey: o.apiKey,
    baseUrl: url("baseUrl", DEFAULT_BASE_URL),
    uploadUrl: url("uploadUrl", DEFAULT_UPLOAD_URL),
    serviceSegment: o.serviceSegment ?? DEFAULTS.serviceSegment,
    publicUrl,
    publicOrigin: new URL(publicUrl).origin,
    prefix: new URL(publicUrl).pathname.replace(/\/+$/, ""),
    authorize: o.authorize,
    allow: new Set(/** @type {readonly OperationName[]} */ (allow)),
    limits,
    store: o.store ?? memoryStore(),
    origins: new Set(origins.map((x) => x.replace(/\/+$/, ""))),
    /** Whether a request's Host header is publicUrl's host or one of `allowedHosts`. */
    hostAllowed: hostTest(publicUrl, o.allowedHosts),
    forwardHeaders: (o.forwardHeaders ?? []).map((h) => String(h).toLowerCase()),
    scrub,
    /** Logs `line` with every secret cut out; a failing logger never fails a request. */
    log: (/** @type {string} */ line) => {
      try {
        log(scrub(line));
      } catch {
        // Nothing to do: the line is lost, the request goes on.
      }
    },
    upstream: upstream(o.fetch),
    eventBacklog: positive("eventBacklog"),
    retentionMs: positive("retentionMs"),
    heartbeatMs: positive("heartbeatMs"),
    /** This instance's requests in flight, per user and in all. */
    inFlight: { byUser: /** @type {Map<string, number>} */ (new Map()), total: 0, bodyBytes: 0 },
    /** This instance's open event streams, per user. */
    streams: /** @type {Map<string, number>} */ (new Map()),
    /** References written to the store lately (`user id`, at what time), so that a record read
     * again and again is not written again each time. */
    recorded: /** @type {Map<string, number>} */ (new Map()),
    /** The last record each user read by each query, and when: one read again unchanged names
     * nothing new. */
    lastRecords: /** @type {Map<string, { text: string, at: number }>} */ (new Map()),
    /** Callback tokens whose create is in flight here: resolved when it answers. */
    binding: /** @type {Map<string, () => void>} */ (new Map()),
    /** The MCP route's options (`tunesmith/mcp`), or null: no `/mcp` route. */
    mcp: o.mcp || null,
  };
}

/** @typedef {ReturnType<typeof readOptions>} Context */
