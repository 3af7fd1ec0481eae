// The companion's own answers: JSON with the shape of a service envelope (`code`, `msg`), so that a
// page's client reads a refusal as a typed error with its message, plus `error` for programs; and
// the reading of request bodies, capped.

/** @typedef {import("./options.js").Context} Context */

/**
 * An answer of the companion's before it is a `Response`: the handler makes one of it, while
 * `toNodeListener` writes it as it is (a `Response` costs more to make and read than the rest of a
 * small request's handling).
 * @typedef {object} Reply
 * @property {number} status
 * @property {Record<string, string>} headers lower-case names
 * @property {string | ReadableStream<Uint8Array> | null} body
 * @property {() => void} [release] Gives back what the answer holds (its request's slot, the bytes
 *   it counts in `bodyBytesInFlight`): called once, when it is written out or its client has gone.
 */

/** Where a companion's handler keeps its function that answers with a `Reply`, for `toNodeListener`. */
export const REPLY = Symbol("reply");

/**
 * A Reply as a `Response`. Its `release` is called once its body has been read to the end or
 * cancelled (at once for a text, which the Response holds from then on).
 * @param {Reply} reply
 */
export function toResponse(reply) {
  const { status, headers, release } = reply;
  let body = reply.body;
  if (release && body && typeof body !== "string") {
    const reader = body.getReader();
    body = new ReadableStream({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (!done) return controller.enqueue(value);
          controller.close();
        } catch (e) {
          controller.error(e);
        }
        release();
      },
      cancel(reason) {
        release();
        return reader.cancel(reason);
      },
    });
  } else release?.();
  return new Response(body, { status, headers });
}

/**
 * A `Response` as a Reply, its body streamed as it is.
 * @param {Response} response @returns {Reply}
 */
export function fromResponse(response) {
  /** @type {Record<string, string>} */
  const headers = {};
  for (const [name, value] of response.headers) headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  return { status: response.status, headers, body: response.body };
}

const HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

/**
 * A JSON answer with the given status, headers and body.
 * @param {number} status @param {unknown} body @param {Record<string, string>} [headers]
 * @returns {Reply}
 */
export function json(status, body, headers = {}) {
  return { status, headers: { ...HEADERS, ...headers }, body: JSON.stringify(body) };
}

/**
 * A refusal: `{ code, msg, error }`, and any extra fields (`field`, `rule`, `limit`).
 * @param {number} status @param {string} error @param {string} msg
 * @param {Record<string, unknown>} [extra] @param {Record<string, string>} [headers]
 * @returns {Reply}
 */
export function refuse(status, error, msg, extra = {}, headers = {}) {
  return json(status, { code: status, msg, error, ...extra }, headers);
}

/**
 * The bytes of a body, or `null` past `max` bytes (the rest is not read).
 * @param {ReadableStream<Uint8Array> | null} body @param {number} max
 */
export async function readCapped(body, max) {
  if (!body) return new Uint8Array(0);
  /** @type {Uint8Array[]} */
  const chunks = [];
  let size = 0;
  const end = await readChunks(body, max, (chunk, read) => {
    chunks.push(chunk);
    size = read;
    return true;
  });
  if (end !== "done") return null;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Reads `body` to its end, handing each chunk and the bytes read so far to `onChunk`. Past `max`
 * bytes, or when `onChunk` answers false, the rest is cancelled unread: "too large" or "refused".
 * @param {ReadableStream<Uint8Array>} body @param {number} max
 * @param {(chunk: Uint8Array, read: number) => boolean} onChunk
 * @returns {Promise<"done" | "too large" | "refused">}
 */
async function readChunks(body, max, onChunk) {
  const reader = body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return "done";
    size += value.byteLength;
    const stop = size > max ? "too large" : onChunk(value, size) ? null : "refused";
    if (stop) {
      await reader.cancel().catch(() => {});
      return stop;
    }
  }
}

/**
 * A JSON object body, read within `max` bytes and the instance's budget of body bytes in flight
 * (`limits.bodyBytesInFlight`, all requests together), as `readText` reads it. The bytes stay counted
 * in `lease` until the request is over (its fields are forwarded from memory).
 * @param {Context} ctx @param {Request} request @param {number} max @param {{ bytes: number }} lease
 * @returns {Promise<{ fields: Record<string, unknown> } | { refusal: Reply }>}
 */
export async function readJson(ctx, request, max, lease) {
  const body = await readText(ctx, request, max, lease);
  return "refusal" in body ? body : parse(body.text);
}

/**
 * Takes `bytes` more from the instance's budget of body bytes in flight (`limits.bodyBytesInFlight`)
 * into `lease`; false (and nothing taken) when they do not fit.
 * @param {Context} ctx @param {{ bytes: number }} lease @param {number} bytes
 */
export function takeBytes(ctx, lease, bytes) {
  if (ctx.inFlight.bodyBytes + bytes > ctx.limits.bodyBytesInFlight) return false;
  ctx.inFlight.bodyBytes += bytes;
  lease.bytes += bytes;
  return true;
}

/** Gives back the bytes of `lease` to the budget. @param {Context} ctx @param {{ bytes: number }} lease */
export function giveBack(ctx, lease) {
  ctx.inFlight.bodyBytes -= lease.bytes;
  lease.bytes = 0;
}

/**
 * A text body, within `max` bytes and the budget of body bytes in flight, counted in `lease` (see
 * `readJson`). Past `max`, a 413 (a declared length past it is refused before anything is read);
 * past the budget, a 503. While it comes, the body is held as the chunks Node read it in, each byte
 * once, as it is counted (decoded as it arrived, a chunk would stay in memory as garbage beside its
 * text until the next collection: twice the bytes counted); decoded once it is whole, each chunk let
 * go as soon as it is decoded.
 * @param {Context} ctx @param {Request} request @param {number} max @param {{ bytes: number }} lease
 * @returns {Promise<{ text: string } | { refusal: Reply }>}
 */
export async function readText(ctx, request, max, lease) {
  const busy = () => ({
    refusal: refuse(
      503,
      "busy",
      "the companion holds as many request bodies as it may at once; try again in a moment",
      { limit: "bodyBytesInFlight" },
      { "retry-after": "1" },
    ),
  });
  const tooLarge = () => ({
    refusal: refuse(413, "too_large", `a JSON request is at most ${describe(max)} here`, { field: "request", rule: "max_bytes" }),
  });
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > max) return tooLarge();
  // A declared length is taken from the budget at once; an undeclared one as it arrives.
  if (Number.isFinite(declared) && !takeBytes(ctx, lease, declared)) return busy();
  if (!request.body) return { text: "" };
  const start = lease.bytes - (Number.isFinite(declared) ? declared : 0);
  /** @type {Uint8Array[]} */
  const chunks = [];
  const end = await readChunks(request.body, max, (chunk, read) => {
    if (start + read > lease.bytes && !takeBytes(ctx, lease, start + read - lease.bytes)) return false;
    chunks.push(chunk);
    return true;
  });
  if (end === "too large") return tooLarge();
  if (end === "refused") return busy();
  const decoder = new TextDecoder();
  /** @type {string[]} */
  const parts = [];
  for (let i = 0; i < chunks.length; i++) {
    parts.push(decoder.decode(chunks[i], { stream: true }));
    chunks[i] = EMPTY;
  }
  parts.push(decoder.decode());
  return { text: parts.join("") };
}

const EMPTY = new Uint8Array(0);

/** @param {string} text @returns {{ fields: Record<string, unknown> } | { refusal: Reply }} */
function parse(text) {
  let fields;
  try {
    fields = JSON.parse(text);
  } catch {
    return { refusal: refuse(400, "validation", "the request body is not JSON", { field: "request", rule: "type" }) };
  }
  if (!fields || typeof fields !== "object" || Array.isArray(fields)) {
    return { refusal: refuse(400, "validation", "the request body must be a JSON object", { field: "request", rule: "type" }) };
  }
  return { fields };
}

/** 65536 -> "64 KiB". @param {number} bytes */
function describe(bytes) {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}
