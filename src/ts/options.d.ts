// ---- Client options -------------------------------------------------------------------------

/** Options of `new Client(...)`. */
export interface ClientOptions {
  /**
   * The bearer key, or a function returning one (or a Promise of one), called before each attempt so
   * that an app can fetch short-lived keys from its own backend. Omit it when `baseUrl` points at
   * your own proxy that adds the key.
   */
  apiKey?: string | (() => string | Promise<string>);
  /**
   * A companion server (`tunesmith/server`) that holds the key: requests go to `{companionUrl}/music`
   * and `/upload` (so `baseUrl`, `uploadUrl` and `apiKey` are not used), cookies go along, and the
   * waiters and `watchTask` follow the task on the companion's event stream: one query reads the
   * record (`pending` is reported, as when polling), each stage is pushed (`onProgress` gets the
   * family's record, the pushed state, stage and data laid over it) and one query fetches the final
   * record, which is reported, the waiter resolves with and `watchTask` yields last. When the stream drops, they reconnect
   * (missing nothing) and, if it stays down, poll through the companion. An empty string counts as
   * not set.
   */
  companionUrl?: string;
  /**
   * Music host. Default `https://api.sunoapi.org`. Point it at a proxy or the local emulator. An
   * empty string counts as not set (the default): an environment variable set to nothing
   * (`TUNESMITH_BASE_URL=`) reads as `""`.
   */
  baseUrl?: string;
  /** Upload host. Default `https://sunoapiorg.redpandaai.co`. An empty string counts as not set. */
  uploadUrl?: string;
  /** Service segment in the cover paths (`/api/v1/{segment}/cover/...`). Default `suno`. */
  serviceSegment?: string;
  /** Timeout of each attempt, in milliseconds. Default 60000. */
  timeoutMs?: number;
  /** Timeout of each upload attempt, in milliseconds. Default 600000. */
  uploadTimeoutMs?: number;
  /**
   * Retries after a retryable failure, 0 to 10. Default 2. Task-creating calls are retried only when
   * the service said nothing was created (rate limit, maintenance): never after a 500 or a timeout.
   */
  maxRetries?: number;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * A fetch implementation to use instead of the default: in Node, a keep-alive connection pool of
   * undici's (faster per call than the global `fetch`; it sends text bodies and does not follow
   * redirects, and a multipart upload goes through the global `fetch`); elsewhere the global `fetch`.
   */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /**
   * Allows a literal `apiKey` in a browser page, where anyone can read it. Prefer a proxy
   * (`baseUrl`) or an `apiKey` function that returns short-lived keys.
   */
  dangerouslyAllowBrowser?: boolean;
}

/** Options of one call. */
export interface RequestOptions {
  /** Cancels the request in flight and any backoff sleep, at once (rejects with `AbortError`). */
  signal?: AbortSignal;
  /** Timeout of each attempt of this call, in milliseconds. */
  timeoutMs?: number;
  /** Retries for this call, 0 to 10. */
  maxRetries?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
  /**
   * Fields the package does not know yet (the service added them after this release), sent as they
   * are: merged into the JSON body of a POST, added to the query of a GET. A field the package does
   * know but that is misspelt in the request (`callbackUrl` for `callBackUrl`) is refused with a
   * `ValidationError` (rule `unknown_field`, naming the closest known field) rather than silently
   * ignored by the service; `extraFields` is the explicit way past that check.
   */
  extraFields?: Record<string, unknown>;
}
