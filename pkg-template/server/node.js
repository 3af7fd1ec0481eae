// `toNodeListener`: the companion (or any Web-standard handler) as a `node:http` request listener.
// Bodies stream both ways with backpressure; a client that goes away cancels the answer's stream
// (which closes an event stream and its subscription), and an answer's stream that fails (an event
// stream letting go of a page that does not read) closes the connection, as does a client that takes
// none of an answer for `writeTimeoutMs`. No `node:` import, so the entry stays loadable in Workers
// and browsers.

import { REPLY, fromResponse } from "./answers.js";

/** @typedef {import("./answers.js").Reply} Reply */

/** A request target Node parsed but a Web `Request` cannot carry: answered here, never handled. */
const BAD_TARGET = JSON.stringify({
  code: 400,
  msg: "the request target must be a path (origin form), with a method other than CONNECT, TRACE or TRACK",
  error: "bad_request",
});
/** A request with more than one Host header (RFC 9112: a 400). */
const TWO_HOSTS = JSON.stringify({ code: 400, msg: "a request names one Host", error: "bad_request" });

/** How long an answer may wait for its client to take more of it before the connection is closed. */
export const DEFAULT_WRITE_TIMEOUT_MS = 30000;
/**
 * Of a body its handler answered without reading (a refusal), the bytes read and let go so that the
 * connection serves the next request; past them, the rest is left unread and the connection closed.
 */
export const UNREAD_BODY_DRAIN_BYTES = 64 * 1024;
/** How long a connection whose body is left unread stays open once its answer is out. */
const UNREAD_BODY_LINGER_MS = 2000;

/**
 * `http.createServer(toNodeListener(handler))`. Request URLs are built on `origin` (default: the
 * companion's `publicUrl` origin, `handler.origin`), never on the request's Host header. An answer
 * its client takes nothing of for `writeTimeoutMs` (default `DEFAULT_WRITE_TIMEOUT_MS`) is dropped
 * with its connection, and what it held is given back.
 * @param {((request: Request) => Promise<Response>) & { origin?: string }} handler
 * @param {{ origin?: string, writeTimeoutMs?: number }} [options]
 * @returns {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void}
 */
export function toNodeListener(handler, options = {}) {
  const origin = new URL(options.origin ?? handler.origin ?? "http://localhost").origin;
  const timeout = options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;
  if (!(typeof timeout === "number" && timeout > 0)) {
    throw new TypeError("toNodeListener: `writeTimeoutMs` must be a positive number of milliseconds");
  }
  return (req, res) => {
    serve(handler, origin, req, res, timeout).catch((e) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end();
      // Only the message: the handler scrubbed what it logs, this line names no request data.
      console.warn(`tunesmith/server: answering failed: ${e?.message ?? e}`);
    });
  };
}

/**
 * Resolves (with false) once `res` can take more, or is closed; closes it when it takes nothing
 * for `timeout` ms.
 * @param {import("node:http").ServerResponse} res @param {number} timeout @returns {Promise<boolean>}
 */
function drained(res, timeout) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off("drain", done);
      res.off("close", done);
      resolve(false);
    };
    const timer = setTimeout(() => res.destroy(), timeout);
    res.on("drain", done);
    res.on("close", done);
  });
}

/**
 * Closes the connection of an answer ended but not yet taken whole by its client, once it has taken
 * nothing for `timeout` ms (the rest waits in this process's and the kernel's buffers meanwhile).
 * @param {import("node:http").ServerResponse} res @param {number} timeout
 */
function finishWithin(res, timeout) {
  if (res.writableFinished || res.destroyed) return;
  let left = res.writableLength;
  const timer = setInterval(() => {
    // Some of it was taken: it may go on.
    if (res.writableLength < left) left = res.writableLength;
    else res.destroy();
  }, timeout);
  res.on("close", () => clearInterval(timer));
}

/**
 * @param {(request: Request) => Promise<Response>} handler @param {string} origin
 * @param {import("node:http").IncomingMessage} req @param {import("node:http").ServerResponse} res
 * @param {number} timeout
 */
async function serve(handler, origin, req, res, timeout) {
  // Made when the handler first reads `request.signal` (an AbortSignal costs as much as the rest of
  // a small request), aborted when the client leaves before the answer is complete.
  /** @type {AbortController | null} */
  let abort = null;
  res.on("close", () => {
    if (!res.writableFinished) abort?.abort();
  });
  const signal = () => (abort ??= new AbortController()).signal;
  // Mounted under a prefix (`app.use("/tunesmith", ...)`), Express and Connect cut it from `url`
  // and keep the whole path in `originalUrl`, which is what the companion routes on.
  const path = /** @type {{ originalUrl?: string }} */ (req).originalUrl ?? req.url;
  if (!path?.startsWith("/") || FORBIDDEN_METHODS.has(req.method?.toUpperCase() ?? "")) return badTarget(res);
  // Node keeps the first of several Host headers; which one a proxy in front read is anyone's guess.
  if (req.rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === "host").length > 1) return badTarget(res, TWO_HOSTS);
  const request = new IncomingRequest(origin + path, req, signal);
  // The companion's own handler takes the request as it is and answers with a Reply, written as it
  // is; any other handler, with a Web Request and a Response.
  const direct = /** @type {{ [REPLY]?: (request: Request) => Promise<Reply> }} */ (handler)[REPLY];
  if (direct) {
    const reply = await direct(/** @type {Request} */ (/** @type {unknown} */ (request)));
    if (!request.bodyRead) leaveUnread(req, res);
    return write(reply, res, timeout);
  }
  let web;
  try {
    web = request.toRequest();
  } catch {
    return badTarget(res);
  }
  const reply = fromResponse(await handler(web));
  if (!request.bodyRead) leaveUnread(req, res);
  await write(reply, res, timeout);
}

/**
 * A body its handler answered without reading (or stopped reading: a refusal): Node would read all
 * of it and let it go, to serve the next request on the connection, which costs this process as
 * much memory as the client sends (gigabytes of it, if the client wants). Up to
 * `UNREAD_BODY_DRAIN_BYTES` are read so; past them, the rest is left unread (the client waits,
 * held by TCP) and, once the answer is out, the connection is half-closed and, after
 * `UNREAD_BODY_LINGER_MS`, closed: a client that reads its answer while it sends (fetch, curl) has
 * it by then, and no more of the body comes in. Closed at once, a connection whose body is still
 * coming is reset, and the client would lose the answer it had not read yet.
 * @param {import("node:http").IncomingMessage} req @param {import("node:http").ServerResponse} res
 */
function leaveUnread(req, res) {
  if (req.complete || req.socket === null || req.socket.destroyed) return;
  const socket = req.socket;
  let left = UNREAD_BODY_DRAIN_BYTES;
  const close = () => {
    socket.end();
    setTimeout(() => socket.destroy(), UNREAD_BODY_LINGER_MS).unref?.();
  };
  const drain = (/** @type {Buffer} */ chunk) => {
    left -= chunk.byteLength;
    if (left >= 0) return;
    req.off("data", drain);
    // Paused, the request stops the socket's reading (Node's own backpressure).
    req.pause();
    if (res.writableFinished) close();
    else res.once("finish", close);
  };
  req.on("data", drain);
  req.resume();
}

/** Methods a Web `Request` refuses to carry. */
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** @param {import("node:http").ServerResponse} res */
function badTarget(res, body = BAD_TARGET) {
  res.writeHead(400, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(body.length), // ASCII: one byte a character
    connection: "close",
  });
  res.end(body);
}

/**
 * A request as the companion's handler reads it, made from Node's IncomingMessage without a Web
 * `Request` (whose constructor, with its `Headers` and `AbortSignal`, costs more than the rest of a
 * forwarded query): its method, URL, headers (a read-only view of Node's), body and signal. Any
 * other member of a `Request` (`json()`, `clone()`, `credentials`...), which an `authorize` function
 * may read, is the Web `Request`'s, made on first use.
 */
class IncomingRequest {
  /** @type {Request | null} */
  #request = null;
  /** @type {ReadableStream<Uint8Array> | null | undefined} */
  #body;
  /** @type {NodeHeaders | null} */
  #headers = null;
  #url;
  #req;
  #signal;
  /**
   * @param {string} url @param {import("node:http").IncomingMessage} req
   * @param {() => AbortSignal} signal
   */
  constructor(url, req, signal) {
    this.#url = url;
    this.#req = req;
    this.#signal = signal;
  }

  get url() {
    return this.#url;
  }

  get method() {
    return this.#req.method ?? "GET";
  }

  get headers() {
    return (this.#headers ??= new NodeHeaders(this.#req.headers));
  }

  get signal() {
    return this.#signal();
  }

  /**
   * Whether the body is being read or was read to its end: false when it was never asked for, or
   * its reading was cancelled (what is left of it is unread).
   */
  get bodyRead() {
    return this.#body !== undefined && this.#body !== null && !this.#req.destroyed;
  }

  get body() {
    // Once made, the Request holds the body (`clone()` puts a branch of it in the stream's place).
    if (this.#request) return this.#request.body;
    if (this.#body === undefined) {
      const method = this.method;
      this.#body =
        method === "GET" || method === "HEAD"
          ? null
          : /** @type {ReadableStream<Uint8Array>} */ (/** @type {any} */ (ReadableStream).from(this.#req));
    }
    return this.#body;
  }

  /** The Web `Request` of this request, made once; it reads the same body stream. */
  toRequest() {
    if (this.#request) return this.#request;
    /** @type {RequestInit & { duplex?: string }} */
    const init = { method: this.method, headers: [...this.headers] };
    const body = this.body;
    if (body) {
      init.body = body;
      init.duplex = "half";
    }
    const request = new Request(this.#url, init);
    // Given to the constructor, a signal costs more than the whole request's handling (Node 20's
    // Request follows it through weak references); the request carries this one, made on first use.
    Object.defineProperty(request, "signal", { get: this.#signal });
    return (this.#request = request);
  }
}

// Every other member of a Web Request, from the Request made on first use.
for (const name of Object.getOwnPropertyNames(Request.prototype)) {
  if (name in IncomingRequest.prototype) continue;
  const member = Object.getOwnPropertyDescriptor(Request.prototype, name);
  Object.defineProperty(IncomingRequest.prototype, name, {
    configurable: true,
    ...(typeof member?.value === "function"
      ? { value(/** @type {unknown[]} */ ...args) { return /** @type {any} */ (this.toRequest())[name](...args); } }
      : { get() { return /** @type {any} */ (this.toRequest())[name]; } }),
  });
}

/**
 * The request's headers as a Web `Headers` reads them (lower-case names, in order, values of one
 * name joined as Node joins them), over Node's own object; read-only, as a request's are.
 */
class NodeHeaders {
  #raw;
  /** @param {import("node:http").IncomingHttpHeaders} raw */
  constructor(raw) {
    this.#raw = raw;
  }

  /** @param {string} name */
  get(name) {
    const v = this.#raw[String(name).toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
  }

  /** @param {string} name */
  has(name) {
    return this.#raw[String(name).toLowerCase()] !== undefined;
  }

  getSetCookie() {
    const v = this.#raw["set-cookie"];
    return v === undefined ? [] : Array.isArray(v) ? [...v] : [v];
  }

  /** @returns {IterableIterator<[string, string]>} */
  *entries() {
    for (const name of Object.keys(this.#raw).sort()) {
      const v = this.get(name);
      if (v !== null) yield [name, v];
    }
  }

  keys() {
    return [...this.entries()].map(([name]) => name)[Symbol.iterator]();
  }

  values() {
    return [...this.entries()].map(([, value]) => value)[Symbol.iterator]();
  }

  /** @param {(value: string, name: string, headers: NodeHeaders) => void} each @param {unknown} [self] */
  forEach(each, self) {
    for (const [name, value] of this.entries()) each.call(self, value, name, this);
  }

  [Symbol.iterator]() {
    return this.entries();
  }

  get [Symbol.toStringTag]() {
    return "Headers";
  }

  append() {
    throw new TypeError("a request's headers are immutable");
  }

  set() {
    this.append();
  }

  delete() {
    this.append();
  }
}

/**
 * Writes `reply`: a text in one write, with its length; a stream as it comes, with backpressure, a
 * body of one chunk in one write too. Its `release` is called when the connection is done with it.
 * @param {Reply} reply @param {import("node:http").ServerResponse} res @param {number} timeout
 */
async function write(reply, res, timeout) {
  const { status, headers, body, release } = reply;
  if (release) {
    if (res.destroyed) release();
    else res.on("close", release);
  }
  if (body === null) return void res.writeHead(status, headers).end();
  if (typeof body === "string") {
    res.writeHead(status, { ...headers, "content-length": String(Buffer.byteLength(body)) }).end(body);
    return finishWithin(res, timeout);
  }
  const reader = body.getReader();
  res.on("close", () => reader.cancel().catch(() => {}));
  const first = await reader.read();
  if (first.done) return void res.writeHead(status, { ...headers, "content-length": "0" }).end();
  let next = reader.read();
  const after = await Promise.race([next, new Promise((resolve) => setImmediate(resolve, null))]);
  if (after?.done) {
    res.writeHead(status, { ...headers, "content-length": String(first.value.byteLength) }).end(first.value);
    return finishWithin(res, timeout);
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
    if (!res.write(chunk.value) && (await Promise.race([drained(res, timeout), failed]))) return void res.destroy();
    if (res.destroyed) return void reader.cancel().catch(() => {});
    try {
      chunk = await next;
    } catch {
      return void res.destroy();
    }
    if (!chunk.done) next = reader.read();
  }
  res.end();
  finishWithin(res, timeout);
}
