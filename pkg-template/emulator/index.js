// `tunesmith/emulator`: the emulator of the service, in-process, for tests. The same Rust as the
// native binary compiled to wasm (emulator/wasm): both hosts, stateful tasks, real media,
// callbacks, a clock you move and faults, served through a `fetch` function.
// Loaded only when imported: the package's other entries never reach it.

import { resolve } from 'node:path';
import { Emulator } from './tunesmith_emulator.js';
import { memoryStorage, diskStorage, outbound } from './host.js';
import { load } from './load.js';

// Addresses the URL rules see for the in-process hosts (TEST-NET-1: never a real machine).
const OWN_MUSIC = '192.0.2.1';
const OWN_UPLOAD = '192.0.2.2';

function flag(args, name, value) {
  if (value !== undefined && value !== null) args.push(`--${name}`, String(value));
}

/** The flags of the binary for these options (a shared vocabulary with `npx tunesmith emulator`). */
function flagsOf(o) {
  const args = [];
  const keys = o.apiKeys ?? (o.apiKey ? [o.apiKey] : []);
  for (const k of keys) args.push('--api-key', String(k));
  flag(args, 'credits', o.credits);
  flag(args, 'stage-delay-ms', o.stageDelayMs);
  flag(args, 'rate-limit', o.rateLimit);
  flag(args, 'fault-rate', o.faultRate);
  flag(args, 'seed', o.seed);
  flag(args, 'callback-timeout-ms', o.callbackTimeoutMs);
  flag(args, 'callback-retry-delay-ms', o.callbackRetryDelayMs);
  flag(args, 'service-segment', o.serviceSegment);
  if (o.allowPrivateUrlUploads) args.push('--allow-private-url-uploads');
  return args.concat(o.args ?? []);
}

const NO_BODY = new Uint8Array(0);
// Methods a Request keeps as written (fetch upper-cases some others, and refuses a few).
const PLAIN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

/** Whether `fetch(url, init)` needs no Request: a known method, and no body or a text or byte
 * one where a body is allowed. */
function plainInit(init) {
  if (init === undefined) return true;
  if (init === null || typeof init !== 'object') return false;
  const { method = 'GET', body } = init;
  if (!PLAIN_METHODS.has(method)) return false;
  if (body == null) return true;
  return method !== 'GET' && method !== 'HEAD' && (typeof body === 'string' || body instanceof Uint8Array);
}

/**
 * What the emulator needs of `fetch(input, init)`: `{ url, method, headers, body, signal }`. A
 * plain call (the client's: a URL, headers, a text body) is read as it is, with the Headers and
 * content type a Request would give it; building the Request and its streams costs more than the
 * emulator's answer (bench/emulator). Anything else goes through a Request, with its checks.
 */
async function partsOf(input, init) {
  if ((typeof input === 'string' || input instanceof URL) && plainInit(init)) {
    const url = new URL(input);
    if (!url.username && !url.password && (url.protocol === 'http:' || url.protocol === 'https:')) {
      const headers = new Headers(init?.headers);
      let body = init?.body ?? NO_BODY;
      if (typeof body === 'string') {
        if (!headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
        body = new TextEncoder().encode(body);
      }
      url.hash = '';
      return { url, method: init?.method ?? 'GET', headers, body, signal: init?.signal };
    }
  }
  const request = new Request(input, init);
  const body = request.method === 'GET' || request.method === 'HEAD'
    ? NO_BODY
    : new Uint8Array(await request.arrayBuffer());
  return { url: new URL(request.url), method: request.method, headers: request.headers, body, signal: request.signal };
}

/** Sends a request's parts (`partsOf`) to the wasm emulator; resolves to a Response. */
async function answer(wasm, host, { url, method, headers: given, body }) {
  const headers = [];
  for (const [k, v] of given) headers.push(k, v);
  if (!given.has('host')) headers.push('host', url.host);
  const res = await wasm.handle(host, method, url.pathname + url.search, headers, body);
  const noBody = method === 'HEAD' || [101, 204, 205, 304].includes(res.status);
  return new Response(noBody ? null : res.body, { status: res.status, headers: res.headers });
}

/**
 * Starts an emulator in this process. See index.d.ts for every option.
 * @param {import('./index.js').EmulatorOptions} [options]
 */
export async function createEmulator(options = {}) {
  load();
  const musicUrl = (options.musicUrl ?? 'http://music.emulator.local').replace(/\/+$/, '');
  const uploadUrl = (options.uploadUrl ?? 'http://upload.emulator.local').replace(/\/+$/, '');
  const music = new URL(musicUrl);
  const upload = new URL(uploadUrl);
  if (music.origin === upload.origin) throw new TypeError('createEmulator: `musicUrl` and `uploadUrl` must differ');
  const clockKind = options.clock ?? 'manual';
  if (clockKind !== 'manual' && clockKind !== 'system') {
    throw new TypeError(`createEmulator: \`clock\` must be "manual" or "system"; got ${JSON.stringify(clockKind)}`);
  }
  if (options.onCallback !== undefined && typeof options.onCallback !== 'function') {
    throw new TypeError('createEmulator: `onCallback` must be a function (url, body) => status or Response');
  }
  const hostOf = (u, hostHeader) => {
    const h = hostHeader ?? u.host;
    if (u.origin === music.origin || u.hostname === OWN_MUSIC || h === music.host) return 'music';
    if (u.origin === upload.origin || u.hostname === OWN_UPLOAD || h === upload.host) return 'upload';
    return undefined;
  };
  let wasm;
  const own = async (url, init, hostHeader) => {
    const u = new URL(url);
    const host = hostOf(u, hostHeader);
    if (!host) return undefined;
    const fixed = new URL(u.pathname + u.search, host === 'music' ? musicUrl : uploadUrl);
    return answer(wasm, host, await partsOf(fixed, { method: init.method, headers: { 'content-type': 'application/json' }, body: init.body }));
  };
  const port = (u) => u.port || (u.protocol === 'https:' ? '443' : '80');
  const ownAddress = (hostname, p) => {
    if (hostname === music.hostname && String(p) === port(music)) return `${OWN_MUSIC}:${p}`;
    if (hostname === upload.hostname && String(p) === port(upload)) return `${OWN_UPLOAD}:${p}`;
    return undefined;
  };
  const storage = options.dataDir ? diskStorage(options.dataDir) : memoryStorage();
  const root = options.dataDir ? resolve(options.dataDir) : '/emulator';
  const host = { ...storage, ...outbound({ own, onCallback: options.onCallback, fetch: options.fetch, ownAddress }) };
  wasm = new Emulator(
    flagsOf(options), musicUrl, uploadUrl,
    `${OWN_MUSIC}:${port(music)}`, `${OWN_UPLOAD}:${port(upload)}`,
    clockKind === 'manual', root, host,
  );
  let closed = false;

  /** `fetch` for both hosts: anything else is refused as an unreachable host would be. */
  const emulatorFetch = async (input, init) => {
    const request = await partsOf(input, init);
    if (request.signal?.aborted) throw request.signal.reason ?? new DOMException('aborted', 'AbortError');
    const target = hostOf(request.url);
    if (!target) {
      throw new TypeError(`fetch failed: ${request.url.origin} is neither the emulator's music host (${musicUrl}) nor its upload host (${uploadUrl})`);
    }
    if (closed) throw new TypeError('fetch failed: the emulator was closed');
    return answer(wasm, target, request);
  };

  const admin = async (path, body, key) => {
    const headers = { 'content-type': 'application/json' };
    if (key) headers.authorization = `Bearer ${key}`;
    const res = await emulatorFetch(`${musicUrl}${path}`, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) });
    const json = await res.json();
    if (res.status !== 200) throw new Error(`emulator: ${path}: ${json.error ?? res.status}`);
    return json;
  };
  const defaultKey = () => (options.apiKeys ?? (options.apiKey ? [options.apiKey] : ['ts-dev-key']))[0];

  const advance = async (ms) => {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance: \`ms\` must be a finite number >= 0; got ${ms}`);
    if (!wasm.advance(ms)) throw new Error('advance: the emulator runs on the system clock (createEmulator({ clock: "manual" }) to move it)');
    // Every stage and callback that fell due runs to its end (callbacks answered or timed out).
    while (!wasm.settled()) await new Promise((res) => setImmediate(res));
    return wasm.nowMs();
  };

  return {
    fetch: emulatorFetch,
    musicUrl,
    uploadUrl,
    clock: {
      kind: clockKind,
      now: () => wasm.nowMs(),
      advance,
    },
    advance,
    /** The API requests received, as the native `GET /_emulator/requests` lists them. */
    requests: async ({ tag, since } = {}) => {
      const q = new URLSearchParams();
      if (tag !== undefined) q.set('tag', tag);
      if (since !== undefined) q.set('since', String(since));
      return (await admin(`/_emulator/requests${q.size ? `?${q}` : ''}`)).requests;
    },
    /** Arms faults as `POST /_emulator/faults` does (scoped by `tag`, sent as X-Emulator-Tag). */
    faults: { arm: (spec) => admin('/_emulator/faults', spec).then(() => undefined) },
    credits: {
      get: async (apiKey = defaultKey()) => {
        const res = await emulatorFetch(`${musicUrl}/api/v1/generate/credit`, { headers: { authorization: `Bearer ${apiKey}` } });
        const json = await res.json();
        if (json.code !== 200) throw new Error(`emulator: credits: ${json.msg}`);
        return json.data;
      },
      set: (credits, apiKey = defaultKey()) => admin('/_emulator/credits', { credits }, apiKey).then((j) => j.credits),
    },
    close: async () => {
      if (closed) return;
      closed = true;
      wasm.close();
    },
  };
}
