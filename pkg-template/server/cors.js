// CORS for the companion's own origin (publicUrl's) and the origins the developer listed, and no
// others (`createCompanion` refuses any other origin before this is reached).

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
