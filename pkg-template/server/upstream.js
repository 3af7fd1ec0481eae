// Requests to the service from the package's server-side code: the companion's (server/), and the
// Client's in Node (node.js: its default `fetch` there). In Node, over a keep-alive connection pool
// of undici's own, through its `dispatch` (`fetch` costs several times more, and `request` makes a
// Node stream of every answer that is read whole anyway); elsewhere (Deno, Bun, Workers) or with
// the `fetch` option, through fetch. Redirects are never followed: the key would go along.

/** Workers do not implement `redirect: "error"`; there "manual" hands a 3xx back (an opaque one, as
 * status 0), which `forward` refuses like every other. */
const REDIRECT = /** @type {any} */ (globalThis).navigator?.userAgent === "Cloudflare-Workers" ? "manual" : "error";

/** undici, loaded on first use and only in Node: a name in a variable keeps bundlers off it. */
const UNDICI = "undici";
/** Idle connections to the service are kept this long for the next request. */
const KEEP_ALIVE_MS = 30_000;
export const USER_AGENT = "tunesmith-companion";
/** An origin as its URL is usually written (lower-case scheme, no user, no backslash). */
const PLAIN_ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$|^https?:\/\/\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/**
 * What the service answered.
 * @typedef {object} UpstreamAnswer
 * @property {number} status
 * @property {(name: string) => string | null} header
 * @property {() => Promise<string>} text
 */

/**
 * One request to the service.
 * @typedef {object} UpstreamRequest
 * @property {string} method
 * @property {Record<string, string>} headers
 * @property {string | ReadableStream<Uint8Array>} [body]
 * @property {AbortSignal} [signal]
 */

export const isNode = () => {
  const g = /** @type {any} */ (globalThis);
  return typeof g.process?.versions?.node === "string" && !g.process.versions.bun && g.Deno === undefined;
};

/**
 * The transport of one companion (or of the Node Client): `send(url, request)` and `close()`
 * (which closes its pool).
 * @param {typeof fetch} [customFetch]
 * @param {string | null} [userAgent] the `user-agent` every request is sent with; `null`: the
 *   caller's own headers say (the Node Client keeps one its user set)
 */
export function upstream(customFetch, userAgent = USER_AGENT) {
  /** @type {((message: string) => void) | null} */
  let warn = null;
  /** @type {string | null} */
  let failure = null;
  // Loaded at once, so that the first request does not wait for it.
  /** @type {Promise<any> | null} */
  const pool =
    customFetch || !isNode()
      ? null
      : import(UNDICI).then(
          (undici) => ({ undici, pools: new Map() }),
          (e) => {
            failure = `companion: undici could not be loaded (${e?.message ?? e}); forwarding with fetch, which is slower`;
            warn?.(failure);
            return null;
          },
        );

  /** @param {string} url @param {UpstreamRequest} r @returns {Promise<UpstreamAnswer>} */
  const viaFetch = async (url, r) => {
    const f = customFetch ?? globalThis.fetch;
    const init = /** @type {RequestInit & { duplex?: string }} */ ({
      method: r.method,
      headers: r.headers,
      body: r.body,
      // With any other mode, fetch tees a streamed body to replay it after a redirect, keeping every
      // chunk of an upload in memory.
      redirect: REDIRECT,
      signal: r.signal,
    });
    if (r.body && typeof r.body !== "string") init.duplex = "half";
    const response = await f(url, init);
    // An opaque redirect (Workers' "manual") has status 0: read as the 3xx it was.
    const status = response.type === "opaqueredirect" ? 302 : response.status;
    return { status, header: (name) => response.headers.get(name), text: () => response.text() };
  };

  /** @param {string} url @param {UpstreamRequest} r @returns {Promise<UpstreamAnswer>} */
  const viaPool = async (url, r) => {
    const agent = await /** @type {Promise<any>} */ (pool);
    if (!agent) return viaFetch(url, r);
    // The service's two hosts, each with a pool of its own. A plain `scheme://host[:port]/path`
    // (every usual URL) is cut where its path starts; any other spelling is read by the URL parser.
    const at = url.indexOf("/", url.indexOf("//") + 2);
    let origin = at < 0 ? url : url.slice(0, at);
    let path = at < 0 ? "/" : url.slice(at);
    if (!PLAIN_ORIGIN.test(origin)) {
      const u = new URL(url);
      origin = u.origin;
      path = u.pathname + u.search;
    }
    let dispatcher = agent.pools.get(origin);
    if (!dispatcher) {
      dispatcher = new agent.undici.Pool(origin, { keepAliveTimeout: KEEP_ALIVE_MS, keepAliveMaxTimeout: KEEP_ALIVE_MS });
      agent.pools.set(origin, dispatcher);
    }
    const options = { path, method: r.method, headers: r.headers, body: r.body };
    return new Promise((resolve, reject) => dispatch(dispatcher, options, r.signal, resolve, reject));
  };
  return {
    /** Sets where a failure to load the pool is reported. */
    onWarning(/** @type {(message: string) => void} */ log) {
      warn = log;
      if (failure) log(failure);
    },
    /** @param {string} url @param {UpstreamRequest} r */
    send(url, r) {
      const headers = userAgent === null ? r.headers : { ...r.headers, "user-agent": userAgent };
      return pool ? viaPool(url, { ...r, headers }) : viaFetch(url, { ...r, headers });
    },
    async close() {
      const agent = await pool;
      await Promise.all([...(agent?.pools.values() ?? [])].map((p) => p.close().catch(() => {})));
    },
  };
}

/**
 * One request on undici's `dispatcher`, its answer gathered whole (the service's answers are small
 * JSON, and every one is read to its end).
 * @param {any} dispatcher @param {object} options @param {AbortSignal | undefined} signal
 * @param {(answer: UpstreamAnswer) => void} resolve @param {(error: unknown) => void} reject
 */
function dispatch(dispatcher, options, signal, resolve, reject) {
  let status = 0;
  /** @type {Record<string, string | string[]>} */
  let headers = {};
  /** @type {Buffer[]} */
  const chunks = [];
  /** @type {(() => void) | null} */
  let unlisten = null;
  const settle = () => unlisten?.();
  dispatcher.dispatch(options, {
    /** @param {{ abort(reason: unknown): void }} controller */
    onRequestStart(controller) {
      // Called again when undici retries the request on a fresh connection: one listener at a time.
      settle();
      if (!signal) return;
      if (signal.aborted) return controller.abort(signal.reason);
      const abort = () => controller.abort(signal.reason);
      signal.addEventListener("abort", abort, { once: true });
      unlisten = () => signal.removeEventListener("abort", abort);
    },
    /** @param {unknown} _ @param {number} statusCode @param {Record<string, string | string[]>} h */
    onResponseStart(_, statusCode, h) {
      // A 1xx is followed by the answer's own status and headers.
      if (statusCode < 200) return;
      status = statusCode;
      headers = h;
    },
    /** @param {unknown} _ @param {Buffer} chunk */
    onResponseData(_, chunk) {
      chunks.push(chunk);
    },
    onResponseEnd() {
      settle();
      const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString();
      resolve({
        status,
        header: (name) => {
          const v = headers[name];
          return v === undefined ? null : Array.isArray(v) ? v.join(", ") : String(v);
        },
        text: async () => text,
      });
    },
    /** @param {unknown} _ @param {unknown} error */
    onResponseError(_, error) {
      settle();
      reject(error);
    },
  });
}
