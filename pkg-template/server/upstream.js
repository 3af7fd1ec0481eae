// The companion's requests to the service. In Node, over a keep-alive connection pool of undici's
// own (its `request` is several times cheaper than `fetch`); elsewhere (Deno, Bun, Workers) or with
// the `fetch` option, through fetch. Redirects are never followed: the key would go along.

/** Workers do not implement `redirect: "error"`; there "manual" hands a 3xx back (an opaque one, as
 * status 0), which `forward` refuses like every other. */
const REDIRECT = /** @type {any} */ (globalThis).navigator?.userAgent === "Cloudflare-Workers" ? "manual" : "error";

/** undici, loaded on first use and only in Node: a name in a variable keeps bundlers off it. */
const UNDICI = "undici";
/** Idle connections to the service are kept this long for the next request. */
const KEEP_ALIVE_MS = 30_000;
export const USER_AGENT = "tunesmith-companion";

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

const isNode = () => {
  const g = /** @type {any} */ (globalThis);
  return typeof g.process?.versions?.node === "string" && !g.process.versions.bun && g.Deno === undefined;
};

/**
 * The transport of one companion: `send(url, request)` and `close()` (which closes its pool).
 * @param {typeof fetch} [customFetch]
 */
export function upstream(customFetch) {
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
          (undici) => ({ undici, dispatcher: new undici.Agent({ keepAliveTimeout: KEEP_ALIVE_MS, keepAliveMaxTimeout: KEEP_ALIVE_MS }) }),
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
    const { statusCode, headers, body } = await agent.undici.request(url, {
      dispatcher: agent.dispatcher,
      method: r.method,
      headers: r.headers,
      body: r.body,
      signal: r.signal,
    });
    return {
      status: statusCode,
      header: (name) => {
        const v = headers[name];
        return v === undefined ? null : Array.isArray(v) ? v.join(", ") : String(v);
      },
      text: () => body.text(),
    };
  };

  return {
    /** Sets where a failure to load the pool is reported. */
    onWarning(/** @type {(message: string) => void} */ log) {
      warn = log;
      if (failure) log(failure);
    },
    /** @param {string} url @param {UpstreamRequest} r */
    send(url, r) {
      const headers = { ...r.headers, "user-agent": USER_AGENT };
      return pool ? viaPool(url, { ...r, headers }) : viaFetch(url, { ...r, headers });
    },
    async close() {
      const agent = await pool;
      await agent?.dispatcher.close().catch(() => {});
    },
  };
}
