// CORS for the companion's own origin (publicUrl's) and the origins the developer listed, and no
// others (`createCompanion` refuses any other origin before this is reached).

/** Headers a page's script may read: the client's retry advice and request ids (upload errors name them). */
const EXPOSED = "retry-after, retry-after-ms, x-request-id";

/** @param {Headers} headers @param {string} origin */
function allowOrigin(headers, origin) {
  headers.set("access-control-allow-origin", origin);
  headers.set("access-control-allow-credentials", "true");
  headers.append("vary", "Origin");
}

/**
 * The answer to a preflight from an allowed origin. The headers it asks for are allowed: the origin
 * is trusted, and the page's own session header is the developer's to name.
 * @param {string | null} origin @param {Request} request
 */
export function preflight(origin, request) {
  const headers = new Headers({
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": request.headers.get("access-control-request-headers") ?? "content-type",
    "access-control-max-age": "600",
  });
  if (origin !== null) allowOrigin(headers, origin);
  return new Response(null, { status: 204, headers });
}

/**
 * `response` with the CORS headers of an allowed `origin`.
 * @param {Response} response @param {string | null} origin
 */
export function cors(response, origin) {
  if (origin === null) return response;
  allowOrigin(response.headers, origin);
  response.headers.set("access-control-expose-headers", EXPOSED);
  return response;
}
