// CORS for the origins the developer listed, and no others (`createCompanion` refuses any other
// origin before this is reached).

function allowOrigin(headers, origin) {
  headers.set("access-control-allow-origin", origin);
  headers.set("access-control-allow-credentials", "true");
  headers.append("vary", "Origin");
}

/**
 * The answer to a preflight from an allowed origin (or from the companion's own). The headers it
 * asks for are allowed: the origin is trusted, and the page's own session header is the
 * developer's to name.
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

/** `response` with the CORS headers of an allowed `origin`. */
export function cors(response, origin) {
  if (origin === null) return response;
  allowOrigin(response.headers, origin);
  response.headers.set("access-control-expose-headers", "retry-after");
  return response;
}
