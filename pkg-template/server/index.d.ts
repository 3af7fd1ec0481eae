// `tunesmith/server`: the companion server. Hand-written: it states no fact of the service.

/** Where the companion keeps what several instances must share. Every method is async. */
export interface CompanionStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets the key only when it is absent; true when it was set. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Adds 1 (the key starts at 0 with `ttlMs` to live); the new count and the time it has left. */
  incr(key: string, ttlMs: number): Promise<{ count: number; ttlMs: number }>;
  /** Appends to a list that keeps its last `maxLength` items. */
  push(key: string, value: string, maxLength: number, ttlMs: number): Promise<void>;
  list(key: string): Promise<string[]>;
  /** A set whose members expire one by one. */
  addMember(key: string, member: string, ttlMs: number): Promise<void>;
  removeMember(key: string, member: string): Promise<boolean>;
  countMembers(key: string): Promise<number>;
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once subscribed, with the function that unsubscribes. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
  close?(): Promise<void>;
}

/** Per-user limits. Over one, the page gets a 429 with `Retry-After` (413 for an upload's size). */
export interface CompanionLimits {
  /** Length of the request-counting window, in milliseconds. Default 60000. */
  windowMs?: number;
  /** Requests a user may send per window, every operation counted. Default 120. */
  requestsPerWindow?: number;
  /** Tasks a user may have running at once (until their final callback). Default 10. */
  tasksInFlight?: number;
  /** Largest stream upload, in bytes. Default 104857600 (100 MiB). */
  uploadBytes?: number;
}

/** What `authorize` may answer besides a user id. */
export interface CompanionRefusal {
  status: 401 | 403;
  message?: string;
}

export interface CompanionOptions {
  /** The service key. It never appears in an answer, a header, a log line or an error. */
  apiKey: string;
  /** Music host. Default `https://api.sunoapi.org`. */
  baseUrl?: string;
  /** Upload host. Default `https://sunoapiorg.redpandaai.co`. */
  uploadUrl?: string;
  /** Service segment in the cover paths. Default `suno`. */
  serviceSegment?: string;
  /**
   * Where the service (and pages) reach this companion, e.g. `https://app.example.com/tunesmith`.
   * Its path is where the handler serves; callbacks go to `{publicUrl}/callbacks/<token>`.
   */
  publicUrl: string;
  /**
   * Your own session check: the user id of the request's caller, or `null` (401), or a refusal.
   * Users never see each other's tasks, records or events.
   */
  authorize(request: Request): string | null | undefined | CompanionRefusal | Promise<string | null | undefined | CompanionRefusal>;
  /** The operations a page may call (the client's method names). Default: all of them. */
  allow?: string[];
  limits?: CompanionLimits;
  /** Default `memoryStore()`: one process. Several instances need a shared one: `redisStore`. */
  store?: CompanionStore;
  /** Origins allowed to call the companion across origins (CORS). Default none: same origin only. */
  origins?: string[];
  /** Request headers passed on to the service (lower case). Default none. */
  forwardHeaders?: string[];
  /** Receives the companion's log lines (with any key replaced by `[redacted]`). Default `console.warn`. */
  log?: (line: string) => void;
  /** A fetch implementation for the requests to the service. */
  fetch?: typeof fetch;
  /** Events kept per user for pages that reconnect. Default 500. */
  eventBacklog?: number;
  /** How long owners, tokens and events are kept, in milliseconds. Default one day. */
  retentionMs?: number;
  /** Interval of the event stream's keep-alive comment, in milliseconds. Default 15000. */
  heartbeatMs?: number;
}

/** A Web-standard handler, as Node (through `toNodeListener`), Deno, Bun, Workers and Next use. */
export interface CompanionHandler {
  (request: Request): Promise<Response>;
  /** Releases the store's connections and timers. */
  close(): Promise<void> | void;
}

/**
 * The companion: serves `/music/*` and `/upload/*` (the allowed operations, with the key added),
 * `/events` (the caller's task events as Server-Sent Events) and `/callbacks/<token>` (the
 * service's callbacks) under the path of `publicUrl`.
 */
export function createCompanion(options: CompanionOptions): CompanionHandler;

/** A `node:http` request listener: `http.createServer(toNodeListener(handler))`. */
export function toNodeListener(
  handler: (request: Request) => Promise<Response>,
): (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void;

/** The default store: this process's memory. */
export function memoryStore(): CompanionStore;

/** A store on a connected node-redis client (v4 or later), for several instances. */
export function redisStore(options: { client: unknown; subscriber?: unknown; prefix?: string }): CompanionStore;
