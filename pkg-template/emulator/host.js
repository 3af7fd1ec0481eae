// The host the emulator's wasm build runs on (emulator/wasm/src/host.rs names each function):
// storage in a Map or under a data folder, timers, and outbound HTTP (callbacks and URL uploads).
// Requests to the emulator's own hosts go straight back into it, never to the network.

import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, appendFileSync, openSync, fsyncSync, closeSync } from 'node:fs';
import { dirname, join, resolve as resolvePath, sep } from 'node:path';
import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';

/** Storage in memory: paths are keys. */
export function memoryStorage() {
  const files = new Map();
  const under = (dir) => (dir.endsWith('/') ? dir : `${dir}/`);
  return {
    read: (path) => files.get(path),
    write: (path, bytes) => { files.set(path, bytes); },
    append: (path, bytes) => {
      const old = files.get(path);
      if (!old) { files.set(path, bytes); return; }
      const joined = new Uint8Array(old.length + bytes.length);
      joined.set(old); joined.set(bytes, old.length);
      files.set(path, joined);
    },
    list: (dir) => {
      const prefix = under(dir);
      return [...files.keys()].filter((k) => k.startsWith(prefix) && !k.slice(prefix.length).includes('/'));
    },
    exists: (path) => files.has(path),
    remove: (path) => { files.delete(path); },
    removeDir: (dir) => { const prefix = under(dir); for (const k of [...files.keys()]) if (k.startsWith(prefix)) files.delete(k); },
    prepare: () => {},
  };
}

/** Storage under `root` on disk: whole files written to `tmp` and renamed; nothing outside `root`. */
export function diskStorage(root) {
  const base = resolvePath(root);
  const inside = (path) => {
    const full = resolvePath(path);
    if (full !== base && !full.startsWith(base + sep)) {
      throw new Error(`refused to touch ${JSON.stringify(path)}: outside the data folder`);
    }
    return full;
  };
  let tmpDir = join(base, 'tmp');
  const ensure = (dir) => { if (!existsSync(dir)) mkdirSync(dir, { recursive: true }); };
  return {
    read: (path) => {
      try { return new Uint8Array(readFileSync(inside(path))); } catch (e) { if (e.code === 'ENOENT') return undefined; throw e; }
    },
    write: (path, bytes) => {
      const full = inside(path);
      ensure(dirname(full)); ensure(tmpDir);
      const tmp = join(tmpDir, `${randomBytes(8).toString('hex')}.part`);
      const fd = openSync(tmp, 'w');
      try { writeFileSync(fd, bytes); fsyncSync(fd); } finally { closeSync(fd); }
      renameSync(tmp, full);
    },
    append: (path, bytes) => { const full = inside(path); ensure(dirname(full)); appendFileSync(full, bytes); },
    list: (dir) => {
      try { return readdirSync(inside(dir)).map((n) => join(dir, n)); } catch (e) { if (e.code === 'ENOENT') return []; throw e; }
    },
    exists: (path) => existsSync(inside(path)),
    remove: (path) => rmSync(inside(path), { force: true }),
    removeDir: (path) => rmSync(inside(path), { force: true, recursive: true }),
    prepare: (dirs, tmp) => {
      for (const d of dirs) ensure(inside(d));
      tmpDir = inside(tmp);
      rmSync(tmpDir, { force: true, recursive: true });
      ensure(tmpDir);
    },
  };
}

const timer = (ms, value) => new Promise((res) => { const t = setTimeout(res, ms, value); t.unref?.(); });

/**
 * Timers and outbound HTTP. `own(url)` answers a request to one of the emulator's own hosts
 * (or returns undefined); `onCallback(url, body)` takes callbacks when given; `fetch` sends the
 * others. `lookup(host)` resolves names for the URL rules.
 */
export function outbound({ own, onCallback, fetch: send = globalThis.fetch, ownAddress }) {
  return {
    sleep: (ms) => timer(Math.min(ms, 2 ** 31 - 1)),
    post: async (url, body, timeoutMs) => {
      const text = new TextDecoder().decode(body);
      const attempt = (async () => {
        if (onCallback) {
          const answer = await onCallback(url, JSON.parse(text));
          const status = answer instanceof Response ? answer.status : typeof answer === 'number' ? answer : 200;
          if (answer instanceof Response) await answer.arrayBuffer();
          return status === 200;
        }
        const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: text };
        const res = (await own(url, init)) ?? (await send(url, { ...init, signal: AbortSignal.timeout(timeoutMs) }));
        await res.arrayBuffer();
        return res.status === 200;
      })().catch(() => false);
      return Promise.race([attempt, timer(timeoutMs, false)]);
    },
    resolve: async (host, port) => {
      const mine = ownAddress(host, port);
      if (mine) return mine;
      try {
        const { address, family } = await lookup(host);
        return family === 6 ? `[${address}]:${port}` : `${address}:${port}`;
      } catch { return null; }
    },
    get: async (url, host) => {
      const target = new URL(url);
      const ownAnswer = await own(url, { method: 'GET', headers: { host } }, host);
      if (ownAnswer) return { status: ownAnswer.status, body: new Uint8Array(await ownAnswer.arrayBuffer()) };
      return new Promise((res, rej) => {
        const req = httpRequest(target, { method: 'GET', headers: { host }, timeout: 30_000 }, (answer) => {
          const chunks = [];
          answer.on('data', (c) => chunks.push(c));
          answer.on('end', () => res({ status: answer.statusCode ?? 0, body: new Uint8Array(Buffer.concat(chunks)) }));
          answer.on('error', rej);
        });
        req.on('timeout', () => req.destroy(new Error('timed out after 30 s')));
        req.on('error', rej);
        req.end();
      });
    },
  };
}
