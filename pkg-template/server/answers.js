// The companion's own answers: JSON with the shape of a service envelope (`code`, `msg`), so that a
// page's client reads a refusal as a typed error with its message, plus `error` for programs.

/** A JSON answer with the given status, headers and body. */
export function json(status, body, headers = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
  });
}

/** A refusal: `{ code, msg, error }`, and any extra fields (`field`, `rule`, `limit`). */
export function refuse(status, error, msg, extra = {}, headers = {}) {
  return json(status, { code: status, msg, error, ...extra }, headers);
}

/** The bytes of a body, refused past `max` bytes without reading the rest. */
export async function readCapped(body, max) {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
