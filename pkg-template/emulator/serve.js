// `npx tunesmith emulator`: the emulator's wasm build behind Node's `http` on two ports, with the
// native binary's flags (parsed by the same Rust), default ports (8790, 8791), ready line and data
// folder. Callbacks are real HTTP POSTs; SIGINT and SIGTERM stop it cleanly.

import { createServer } from 'node:http';
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

/** Hands one Node request to the emulator and writes its answer. */
async function serveOne(wasm, host, req, res) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const headers = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const answer = await wasm.handle(host, req.method, req.url, headers, new Uint8Array(Buffer.concat(chunks)));
  const out = {};
  for (const [k, v] of answer.headers) out[k] = k in out ? [].concat(out[k], v) : v;
  res.writeHead(answer.status, out);
  res.end(req.method === 'HEAD' ? undefined : answer.body);
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
  const servers = ['music', 'upload'].map((host) => {
    const server = createServer((req, res) => {
      serveOne(wasm, host, req, res).catch((e) => {
        process.stderr.write(`request failed: ${e?.message ?? e}\n`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('internal error\n');
      });
    });
    // What hyper's header read timeout and the bound on connections do on the native server.
    server.headersTimeout = flags.readTimeoutMs;
    server.requestTimeout = 0;
    server.keepAliveTimeout = Math.min(flags.readTimeoutMs, 5_000);
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
    ...outbound({ own: async () => undefined, ownAddress: () => undefined }),
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
