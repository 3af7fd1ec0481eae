// `toNodeListener`: the companion (or any Web-standard handler) as a `node:http` request listener.
// Bodies stream both ways with backpressure; a client that goes away cancels the answer's stream
// (which closes an event stream and its subscription), and an answer's stream that fails (an event
// stream letting go of a page that does not read) closes the connection. No `node:` import, so the
// entry stays loadable in Workers and browsers.

import { REPLY, fromResponse } from "./answers.js";

/** @typedef {import("./answers.js").Reply} Reply */

/** A request target Node parsed but a Web `Request` cannot carry: answered here, never handled. */
const BAD_TARGET = JSON.stringify({
  code: 400,
  msg: "the request target must be a path (origin form), with a method other than CONNECT, TRACE or TRACK",
  error: "bad_request",
});

/**
 * `http.createServer(toNodeListener(handler))`. Request URLs are built on `origin` (default: the
 * companion's `publicUrl` origin, `handler.origin`), never on the request's Host header.
 * @param {((request: Request) => Promise<Response>) & { origin?: string }} handler
 * @param {{ origin?: string }} [options]
 * @returns {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void}
 */
export function toNodeListener(handler, options = {}) {
  const origin = new URL(options.origin ?? handler.origin ?? "http://localhost").origin;
  return (req, res) => {
    serve(handler, origin, req, res).catch((e) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end();
      // Only the message: the handler scrubbed what it logs, this line names no request data.
      console.warn(`tunesmith/server: answering failed: ${e?.message ?? e}`);
    });
  };
}

/**
 * Resolves (with false) once `res` can take more, or is closed.
 * @param {import("node:http").ServerResponse} res @returns {Promise<boolean>}
 */
function drained(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve(false);
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/**
 * @param {(request: Request) => Promise<Response>} handler @param {string} origin
 * @param {import("node:http").IncomingMessage} req @param {import("node:http").ServerResponse} res
 */
async function serve(handler, origin, req, res) {
  // Made when the handler first reads `request.signal` (an AbortSignal costs as much as the rest of
  // a small request), aborted when the client leaves before the answer is complete.
  /** @type {AbortController | null} */
  let abort = null;
  res.on("close", () => {
    if (!res.writableFinished) abort?.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? "GET";
  /** @type {RequestInit & { duplex?: string }} */
  const init = { method, headers };
  if (method !== "GET" && method !== "HEAD") {
    init.body = /** @type {ReadableStream<Uint8Array>} */ (/** @type {any} */ (ReadableStream).from(req));
    init.duplex = "half";
  }
  // Mounted under a prefix (`app.use("/tunesmith", ...)`), Express and Connect cut it from `url`
  // and keep the whole path in `originalUrl`, which is what the companion routes on.
  const path = /** @type {{ originalUrl?: string }} */ (req).originalUrl ?? req.url;
  let request;
  try {
    if (!path?.startsWith("/")) throw new TypeError("not an origin-form target");
    request = new Request(origin + path, init);
    // Given to the constructor, a signal costs more than the whole request's handling (Node 20's
    // Request follows it through weak references); the request carries its own, made on first use.
    Object.defineProperty(request, "signal", { get: () => (abort ??= new AbortController()).signal });
  } catch {
    res.writeHead(400, {
      "content-type": "application/json; charset=utf-8",
      "content-length": String(BAD_TARGET.length), // ASCII: one byte a character
      connection: "close",
    });
    return void res.end(BAD_TARGET);
  }
  // The companion's own handler answers with a Reply, written as it is; any other, with a Response.
  const direct = /** @type {{ [REPLY]?: (request: Request) => Promise<Reply> }} */ (handler)[REPLY];
  if (direct) return write(await direct(request), res);
  await write(fromResponse(await handler(request)), res);
}

/**
 * Writes `reply`: a text in one write, with its length; a stream as it comes, with backpressure, a
 * body of one chunk in one write too.
 * @param {Reply} reply @param {import("node:http").ServerResponse} res
 */
async function write(reply, res) {
  const { status, headers, body } = reply;
  if (body === null) return void res.writeHead(status, headers).end();
  if (typeof body === "string") {
    return void res.writeHead(status, { ...headers, "content-length": String(Buffer.byteLength(body)) }).end(body);
  }
  const reader = body.getReader();
  res.on("close", () => reader.cancel().catch(() => {}));
  const first = await reader.read();
  if (first.done) return void res.writeHead(status, { ...headers, "content-length": "0" }).end();
  let next = reader.read();
  const after = await Promise.race([next, new Promise((resolve) => setImmediate(resolve, null))]);
  if (after?.done) {
    return void res.writeHead(status, { ...headers, "content-length": String(first.value.byteLength) }).end(first.value);
  }
  // A stream goes out as it comes, its first chunk with the headers.
  res.writeHead(status, headers);
  // A stream that fails while the connection waits for a drain ends the connection.
  const failed = reader.closed.then(
    () => false,
    () => true,
  );
  /** @type {ReadableStreamReadResult<Uint8Array>} */
  let chunk = first;
  while (!chunk.done) {
    if (!res.write(chunk.value) && (await Promise.race([drained(res), failed]))) return void res.destroy();
    if (res.destroyed) return void reader.cancel().catch(() => {});
    try {
      chunk = await next;
    } catch {
      return void res.destroy();
    }
    if (!chunk.done) next = reader.read();
  }
  res.end();
}
