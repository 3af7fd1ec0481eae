// CORS for the companion's own origin (publicUrl's) and the origins the developer listed, and no
// others (`createCompanion` refuses any other origin before this is reached); and the hosts a
// request may name in its Host header: publicUrl's and those the developer listed.

/** Headers a page's script may read: the client's retry advice and request ids (upload errors name them). */
const EXPOSED = "retry-after, retry-after-ms, x-request-id";

/** @typedef {import("./answers.js").Reply} Reply */

/** @param {Record<string, string>} headers @param {string} origin */
function allowOrigin(headers, origin) {
  headers["access-control-allow-origin"] = origin;
  headers["access-control-allow-credentials"] = "true";
  headers.vary = headers.vary ? `${headers.vary}, Origin` : "Origin";
}

/**
 * The answer to a preflight from an allowed origin. The headers it asks for are allowed: the origin
 * is trusted, and the page's own session header is the developer's to name.
 * @param {string | null} origin @param {Request} request @returns {Reply}
 */
export function preflight(origin, request) {
  /** @type {Record<string, string>} */
  const headers = {
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": request.headers.get("access-control-request-headers") ?? "content-type",
    "access-control-max-age": "600",
  };
  if (origin !== null) allowOrigin(headers, origin);
  return { status: 204, headers, body: null };
}

/**
 * `reply` with the CORS headers of an allowed `origin`.
 * @param {Reply} reply @param {string | null} origin
 */
export function cors(reply, origin) {
  if (origin === null) return reply;
  allowOrigin(reply.headers, origin);
  reply.headers["access-control-expose-headers"] = EXPOSED;
  return reply;
}

/** A Host header as a client may send it: a name or an address (IPv6 in brackets), then a port. */
const HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*)(?::\d{1,5})?$/;
/** The names of this machine's loopback interface: one host under any of them. */
const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

/**
 * The test of a request's Host header: publicUrl's host, or one `allowedHosts` lists, compared as
 * the header spells them (lower case, the scheme's default port left out or not). A publicUrl on
 * the loopback interface (`localhost`, `127.0.0.1`, `[::1]`) takes all three names on its port.
 * An entry that is not a host (a URL, a path, userinfo) fails here, naming the option.
 * @param {string} publicUrl @param {unknown} allowedHosts
 * @returns {(host: string | null) => boolean}
 */
export function hostTest(publicUrl, allowedHosts = []) {
  const url = new URL(publicUrl);
  const fallback = url.protocol === "https:" ? ":443" : ":80";
  /** @param {string} host */
  const normal = (host) => {
    const h = host.toLowerCase();
    return h.endsWith(fallback) ? h.slice(0, -fallback.length) : h;
  };
  if (!Array.isArray(allowedHosts) || allowedHosts.some((h) => typeof h !== "string" || !HOST.test(h.toLowerCase()))) {
    const bad = Array.isArray(allowedHosts) ? allowedHosts.filter((h) => typeof h !== "string" || !HOST.test(h.toLowerCase())) : [allowedHosts];
    throw new TypeError(
      `createCompanion: \`allowedHosts\` must list hosts as a Host header names them, a name or an address and an optional port (\`localhost:3000\`, \`app.internal\`), without scheme or path; not: ${bad.map((h) => JSON.stringify(h)).join(", ")}`,
    );
  }
  const hosts = new Set([url.host, ...allowedHosts].map(normal));
  if (LOOPBACK.includes(url.hostname)) for (const name of LOOPBACK) hosts.add(normal(name + (url.port ? `:${url.port}` : "")));
  return (host) => host !== null && HOST.test(host.toLowerCase()) && hosts.has(normal(host));
}
