// `npx tunesmith emulator`: the emulator's wasm build behind Node's `http` on two ports, with the
// native binary's flags (parsed by the same Rust), default ports (8790, 8791), ready line and data
// folder. Callbacks are real HTTP POSTs; SIGINT and SIGTERM stop it cleanly.

import { createServer, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Emulator, parseFlags } from './tunesmith_emulator.js';
import { diskStorage, outbound } from './host.js';
import { load } from './load.js';

/** `ip:port` or `[ip]:port` as Node's listen takes it. */
function splitAddr(addr) {
  const m = /^\[(.*)\]:(\d+)$/.exec(addr) ?? /^(.*):(\d+)$/.exec(addr);
  return { host: m[1], port: Number(m[2]) };
}

/** The base URL of a bound address, as the binary prints it (loopback for an unspecified one). */
function baseUrl({ address, family, port }) {
  if (address === '0.0.0.0' || address === '::') return `http://127.0.0.1:${port}`;
  return family === 'IPv6' ? `http://[${address}]:${port}` : `http://${address}:${port}`;
}

function ownAddr({ address, family, port }) {
  return family === 'IPv6' ? `[${address}]:${port}` : `${address}:${port}`;
}

// The largest body each host accepts, as the native routers set them (emulator/src/http/router.rs):
// on the music host axum's default of 2 MiB (its API routes take 1 MiB); on the upload host a
// stream upload of `--max-upload-mb` plus 1 MiB of multipart framing, or 16 MiB of Base64 JSON.
// One byte past the host's limit is read and handed on, so that the route's own limit refuses the
// body with the answer the native build gives (413 and the family's envelope); the rest is not
// held, and the connection is closed after the answer (closeUnread).
const MIB = 1024 * 1024;
const MUSIC_BODY_LIMIT = 2 * MIB;
const bodyLimit = (host, maxUploadMb) => (host === 'music' ? MUSIC_BODY_LIMIT : Math.max(maxUploadMb * MIB, 16 * MIB) + MIB);

/**
 * Bytes of request bodies held at once, on both ports together: each request reserves its
 * Content-Length (or its host's limit when it declares none) before its first byte is read, and
 * waits its turn otherwise, so that no two requests can each hold half of what they need. A
 * request that waits longer than the read timeout is answered 503.
 */
export class BodyBudget {
  constructor(bytes) { this.bytes = bytes; this.free = bytes; this.queue = []; }

  /** Resolves with a release function, or with null after `timeoutMs`. */
  reserve(n, timeoutMs) {
    const want = Math.min(n, this.bytes);
    if (this.queue.length === 0 && want <= this.free) {
      this.free -= want;
      return Promise.resolve(this.#release(want));
    }
    return new Promise((res) => {
      const entry = { want, res };
      entry.timer = setTimeout(() => {
        this.queue.splice(this.queue.indexOf(entry), 1);
        res(null);
        this.#next();
      }, timeoutMs);
      this.queue.push(entry);
    });
  }

  #release(n) {
    let done = false;
    return () => { if (!done) { done = true; this.free += n; this.#next(); } };
  }

  #next() {
    while (this.queue.length > 0 && this.queue[0].want <= this.free) {
      const entry = this.queue.shift();
      clearTimeout(entry.timer);
      this.free -= entry.want;
      entry.res(this.#release(entry.want));
    }
  }
}

/**
 * Reads at most `limit` bytes of `req`'s body; a pause longer than `pauseMs` ends it (as the
 * native server's body read timeout does). `complete`: the whole body was read.
 */
function readBody(req, limit, pauseMs) {
  return new Promise((res) => {
    const chunks = [];
    let size = 0;
    let timer;
    const finish = (complete) => {
      clearTimeout(timer);
      req.off('data', onData); req.off('end', onEnd); req.off('error', onError); req.off('aborted', onError);
      req.pause();
      res({ body: Buffer.concat(chunks), complete });
    };
    const arm = () => { clearTimeout(timer); timer = setTimeout(() => finish(false), pauseMs); };
    const onData = (c) => {
      const room = limit - size;
      if (c.length >= room) {
        chunks.push(c.subarray(0, room));
        size = limit;
        finish(c.length === room && req.complete);
        return;
      }
      chunks.push(c);
      size += c.length;
      arm();
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    req.on('data', onData); req.on('end', onEnd); req.on('error', onError); req.on('aborted', onError);
    arm();
  });
}

// How long a connection whose body was left unread stays half-closed after its answer.
const LINGER_MS = 2_000;

/**
 * Closes `req`'s connection after its answer although its body was not read to the end: a
 * lingering close, as hyper's does in effect. Node closes such a connection at once, and a socket
 * closed with unread bytes sends a reset, which makes the client's kernel throw away the answer
 * it has not read yet (the client saw a broken pipe instead of its 413). Here the answer goes
 * with a FIN, and what the client still sends is read and dropped until it closes its side or
 * LINGER_MS pass.
 */
function closeUnread(req) {
  const socket = req.socket;
  let timer;
  // Node calls it once the answer (`connection: close`) is written.
  socket.destroySoon = () => {
    socket.end();
    timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref?.();
  };
  socket.once('close', () => clearTimeout(timer));
  req.resume();
}

/** The emulator's 503 envelope, in the host's family. */
function busy(res, host) {
  const body = JSON.stringify({
    code: host === 'music' ? 455 : 500,
    msg: 'The emulator is holding as many request bodies as it allows; try again shortly',
    data: null,
  });
  res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1', connection: 'close' });
  res.end(body);
}

/** Hands one Node request to the emulator and writes its answer. */
async function serveOne(wasm, host, req, res, { limit, budget, pauseMs }) {
  const declared = Number(req.headers['content-length']);
  const hasBody = req.headers['transfer-encoding'] !== undefined || declared > 0;
  let release = () => {};
  let body = Buffer.alloc(0);
  let complete = true;
  if (hasBody) {
    const want = Number.isFinite(declared) && declared >= 0 ? Math.min(declared, limit + 1) : limit + 1;
    release = await budget.reserve(want, pauseMs);
    if (!release) {
      closeUnread(req);
      busy(res, host);
      return;
    }
    ({ body, complete } = await readBody(req, limit + 1, pauseMs));
  }
  try {
    const headers = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
    // A client that goes away before its answer: the emulator drops the request where it stands,
    // as the native server does (an unanswered request is never logged).
    const gone = new Promise((resolve) => res.once('close', resolve));
    const answer = await wasm.handle(host, req.method, req.url, headers, new Uint8Array(body.buffer, body.byteOffset, body.length), gone);
    body = null;
    if (answer === null) return;
    const out = {};
    for (const [k, v] of answer.headers) out[k] = k in out ? [].concat(out[k], v) : v;
    // A body not read to its end: the answer, then the connection is closed (closeUnread).
    if (!complete) {
      out.connection = 'close';
      closeUnread(req);
    }
    res.writeHead(answer.status, out);
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  } finally {
    release();
  }
}

/** POSTs a callback as the native build does: a fresh connection each time, none kept open. */
function postOnce(url, init) {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((res, rej) => {
    const req = send(target, { method: init.method, headers: { ...init.headers, connection: 'close' }, agent: false, signal: init.signal }, (answer) => {
      const chunks = [];
      answer.on('data', (c) => chunks.push(c));
      answer.on('end', () => res({ status: answer.statusCode ?? 0, arrayBuffer: async () => Buffer.concat(chunks) }));
      answer.on('error', rej);
    });
    req.on('error', rej);
    req.end(init.body);
  });
}

/**
 * Runs until SIGINT or SIGTERM; resolves with the exit code.
 * @param {string[]} args the binary's flags
 */
export async function runEmulator(args) {
  load();
  const flags = parseFlags(args);
  if (!flags.ok) {
    (flags.exitCode === 0 ? process.stdout : process.stderr).write(flags.text.endsWith('\n') ? flags.text : `${flags.text}\n`);
    return flags.exitCode;
  }
  if (flags.www) {
    process.stderr.write('could not start the emulator: --www is served by the native binary only\n');
    return 1;
  }
  if (flags.usesDevKey) process.stderr.write('no --api-key given: accepting the development key `ts-dev-key`\n');
  let wasm;
  const pauseMs = flags.readTimeoutMs;
  // 256 MiB of request bodies at once, or one largest upload if that is more.
  const maxUploadMb = flags.maxUploadMb ?? 200;
  const budget = new BodyBudget(Math.max(256 * MIB, bodyLimit('upload', maxUploadMb) + 1));
  const servers = ['music', 'upload'].map((host) => {
    const limits = { limit: bodyLimit(host, maxUploadMb), budget, pauseMs };
    // Node checks its header timeout every `connectionsCheckingInterval`: often enough that a
    // trickling client is cut off within a second of the read timeout, as hyper does.
    const server = createServer({ connectionsCheckingInterval: Math.max(50, Math.min(1_000, pauseMs / 4)) }, (req, res) => {
      serveOne(wasm, host, req, res, limits).catch((e) => {
        process.stderr.write(`request failed: ${e?.message ?? e}\n`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain', connection: 'close' });
        res.end('internal error\n');
      });
    });
    // What hyper's header read timeout and the bound on connections do on the native server; a
    // pause within a body is timed by readBody.
    server.headersTimeout = pauseMs;
    server.requestTimeout = 0;
    server.keepAliveTimeout = Math.min(pauseMs, 5_000);
    server.maxConnections = flags.maxConnections;
    return server;
  });
  const bound = [];
  try {
    for (const [server, addr] of [[servers[0], flags.musicAddr], [servers[1], flags.uploadAddr]]) {
      const { host, port } = splitAddr(addr);
      server.listen(port, host);
      await Promise.race([once(server, 'listening'), once(server, 'error').then(([e]) => { throw e; })]);
      bound.push(server.address());
    }
  } catch (e) {
    for (const s of servers) s.close();
    process.stderr.write(`could not start the emulator: ${e.message}\n`);
    return 1;
  }
  const temp = flags.dataDir ? null : mkdtempSync(join(tmpdir(), 'tunesmith-emulator-'));
  const root = resolve(flags.dataDir ?? temp);
  const [music, upload] = bound;
  const host = {
    ...diskStorage(root),
    ...outbound({ own: async () => undefined, fetch: postOnce, ownAddress: () => undefined }),
  };
  try {
    wasm = new Emulator(args, baseUrl(music), baseUrl(upload), ownAddr(music), ownAddr(upload), false, root, host);
  } catch (e) {
    for (const s of servers) s.close();
    if (temp) rmSync(temp, { recursive: true, force: true });
    process.stderr.write(`could not start the emulator: ${e.message}\n`);
    return 1;
  }
  process.stderr.write(`data directory: ${root}\n`);
  process.stdout.write(`ready music=${wasm.musicUrl} upload=${wasm.uploadUrl}\n`);
  const signal = await new Promise((res) => {
    process.once('SIGINT', () => res('SIGINT'));
    process.once('SIGTERM', () => res('SIGTERM'));
  });
  wasm.close();
  await Promise.all(servers.map((s) => {
    const closed = new Promise((res) => s.close(res));
    s.closeIdleConnections();
    // Open requests get 2 s to finish, as on the native server.
    const t = setTimeout(() => s.closeAllConnections(), 2_000);
    t.unref();
    return closed;
  }));
  if (temp) rmSync(temp, { recursive: true, force: true });
  void signal;
  return 0;
}
