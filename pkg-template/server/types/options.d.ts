export type CompanionStore = import("./store.js").CompanionStore;
export type OperationName = import("./routes.js").OperationName;
/** @typedef {import("./store.js").CompanionStore} CompanionStore */
/** @typedef {import("./routes.js").OperationName} OperationName */
/** The service's music host, unless `baseUrl` names another. */
export declare const DEFAULT_BASE_URL = "https://api.sunoapi.org";
/** The service's upload host, unless `uploadUrl` names another. */
export declare const DEFAULT_UPLOAD_URL = "https://sunoapiorg.redpandaai.co";
/** The limits a companion holds unless `limits` says otherwise. */
export declare const DEFAULT_LIMITS: Readonly<{
    readonly windowMs: 60000;
    readonly requestsPerWindow: 120;
    readonly tasksInFlight: 10;
    readonly eventStreams: 10;
    readonly requestsInFlight: 16;
    readonly totalRequestsInFlight: 1024;
    readonly bodyBytesInFlight: 33554432;
    readonly uploadBytes: 104857600;
}>;
/** The other defaults of `createCompanion`'s options. */
export declare const DEFAULTS: Readonly<{
    readonly serviceSegment: "suno";
    readonly eventBacklog: 500;
    readonly retentionMs: 86400000;
    readonly heartbeatMs: 15000;
}>;
/** Operations a page may not call unless `allow` lists them: the account's balance is not a user's. */
export declare const NOT_ALLOWED_BY_DEFAULT: readonly ["getCredits"];
/** The operations a companion forwards unless `allow` says otherwise: every one but `NOT_ALLOWED_BY_DEFAULT`. */
export declare const DEFAULT_ALLOW: readonly import("./routes.js").OperationName[];
/** Longest JSON body of any operation but `uploadBase64` (prompts and lyrics are a few KB). */
export declare const MAX_JSON_BYTES: number;
/** Longest JSON body of `uploadBase64`: 10 MB of file is some 13.4 MB of Base64 text. */
export declare const MAX_BASE64_JSON_BYTES: number;
/** Longest callback body: the service's are a few kilobytes. */
export declare const MAX_CALLBACK_BYTES: number;
export type CompanionLimits = {
    /**
     * Length of the request-counting window, in milliseconds.
     */
    windowMs?: number;
    /**
     * Requests a user may send per window, every operation and
     * every event stream opened counted.
     */
    requestsPerWindow?: number;
    /**
     * Tasks a user may have running at once (until their final
     * callback, or an hour); counted and taken in one step of the store.
     */
    tasksInFlight?: number;
    /**
     * Event streams a user may hold open at once, on this instance.
     */
    eventStreams?: number;
    /**
     * Requests of a user this instance handles at once.
     */
    requestsInFlight?: number;
    /**
     * Requests of all users this instance handles at once.
     */
    totalRequestsInFlight?: number;
    /**
     * Bytes of JSON bodies this instance holds at once, all users
     * together (a Base64 upload's is the large one).
     */
    bodyBytesInFlight?: number;
    /**
     * Largest stream upload, in bytes.
     */
    uploadBytes?: number;
};
export type CompanionRefusal = {
    status: 401 | 403;
    message?: string;
};
export type CompanionOptions = {
    /**
     * The service key. It never appears in an answer, a header, a log line or
     * an error, in any spelling (upper or lower case, Base64, URL-encoded).
     */
    apiKey: string;
    /**
     * Music host. Default `DEFAULT_BASE_URL`.
     */
    baseUrl?: string;
    /**
     * Upload host. Default `DEFAULT_UPLOAD_URL`.
     */
    uploadUrl?: string;
    /**
     * Service segment in the cover and recovery paths. Default
     * `DEFAULTS.serviceSegment`.
     */
    serviceSegment?: string;
    /**
     * Where the service (and pages) reach this companion, e.g.
     * `https://app.example.com/tunesmith`. Its path is where the handler serves; callbacks go to
     * `{publicUrl}/callbacks/<token>`; its origin is the companion's own, for CORS. The request's
     * `Host` header builds nothing, and must name this host (or one of `allowedHosts`).
     */
    publicUrl: string;
    /**
     *   Your own session check: the user id of the request's caller, or `null` (401), or a refusal.
     *   Users never see each other's tasks, records, tracks, personas, voices or events.
     */
    authorize: (request: Request) => string | null | undefined | CompanionRefusal | Promise<string | null | undefined | CompanionRefusal>;
    /**
     * The operations a page may call (the client's method names). Default
     * `DEFAULT_ALLOW`: all but `getCredits`.
     */
    allow?: readonly OperationName[];
    limits?: CompanionLimits;
    /**
     * Default `memoryStore()`: one process, nothing kept across a
     * restart. `fileStore({ path })` survives restarts; several instances share a `redisStore`.
     */
    store?: CompanionStore;
    /**
     * Origins besides `publicUrl`'s allowed to call the companion (CORS).
     * Default none.
     */
    origins?: string[];
    /**
     * Host headers besides `publicUrl`'s the companion answers, as
     * a proxy in front of it may send them (`localhost:3000`); any other Host is refused with a 421.
     * Default none.
     */
    allowedHosts?: string[];
    /**
     * Request headers passed on to the service (lower case).
     * Default none.
     */
    forwardHeaders?: string[];
    /**
     * Receives the companion's log lines (with the key and
     * every callback token replaced by `[redacted]`). Default `console.warn`.
     */
    log?: (line: string) => void;
    /**
     * A fetch for the requests to the service. Default: in Node, a
     * keep-alive connection pool of undici's; elsewhere the global `fetch`.
     */
    fetch?: typeof fetch;
    /**
     * Events kept per user for pages that reconnect. Default
     * `DEFAULTS.eventBacklog`.
     */
    eventBacklog?: number;
    /**
     * How long owners, tokens, references and events are kept, in
     * milliseconds. Default `DEFAULTS.retentionMs` (a day).
     */
    retentionMs?: number;
    /**
     * Interval of the event stream's keep-alive comment, in
     * milliseconds; a stream whose page has read nothing for two of them is closed. Default
     * `DEFAULTS.heartbeatMs`.
     */
    heartbeatMs?: number;
    /**
     * `true` (or the options of tunesmith/mcp's
     * `createMcpServer`) serves agents at `{publicUrl}/mcp`: each tool call comes back through this
     * companion as its caller, under the same rules. Default none.
     */
    mcp?: boolean | Record<string, unknown>;
};
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
export declare function readOptions(o: CompanionOptions): {
    apiKey: string;
    baseUrl: string;
    uploadUrl: string;
    serviceSegment: string;
    publicUrl: string;
    publicOrigin: string;
    prefix: string;
    authorize: (request: Request) => string | null | undefined | CompanionRefusal | Promise<string | null | undefined | CompanionRefusal>;
    allow: Set<import("./routes.js").OperationName>;
    limits: Record<"bodyBytesInFlight" | "eventStreams" | "requestsInFlight" | "requestsPerWindow" | "tasksInFlight" | "totalRequestsInFlight" | "uploadBytes" | "windowMs", number>;
    store: import("./store.js").CompanionStore;
    origins: Set<string>;
    /** Whether a request's Host header is publicUrl's host or one of `allowedHosts`. */
    hostAllowed: (host: string | null) => boolean;
    forwardHeaders: string[];
    scrub: (text: unknown) => string;
    /** Logs `line` with every secret cut out; a failing logger never fails a request. */
    log: (/** @type {string} */ line: string) => void;
    upstream: {
        onWarning(log: (message: string) => void): void;
        send(url: string, r: import("./upstream.js").UpstreamRequest): Promise<import("./upstream.js").UpstreamAnswer>;
        close(): Promise<void>;
    };
    eventBacklog: number;
    retentionMs: number;
    heartbeatMs: number;
    /** This instance's requests in flight, per user and in all. */
    inFlight: {
        byUser: Map<string, number>;
        total: number;
        bodyBytes: number;
    };
    /** This instance's open event streams, per user. */
    streams: Map<string, number>;
    /** References written to the store lately (`user id`, at what time), so that a record read
     * again and again is not written again each time. */
    recorded: Map<string, number>;
    /** The last record each user read by each query, and when: one read again unchanged names
     * nothing new. */
    lastRecords: Map<string, {
        text: string;
        at: number;
    }>;
    /** Callback tokens whose create is in flight here: resolved when it answers. */
    binding: Map<string, () => void>;
    /** The MCP route's options (`tunesmith/mcp`), or null: no `/mcp` route. */
    mcp: true | Record<string, unknown> | null;
};
export type Context = ReturnType<typeof readOptions>;
/** @typedef {ReturnType<typeof readOptions>} Context */
