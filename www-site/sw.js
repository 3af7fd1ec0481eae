// The demo site's service worker: the whole service, in the browser, under the site's own origin.
// It serves the site's files from its cache (so the site works offline after the first visit),
// and both of the emulator's hosts and the demo's companion, which holds the key:
//
//   <site>/music/*   the emulator's music host (the emulator's wasm build)
//   /api/file-*, /files/*, /download/*   its upload host, at the origin's root (the paths its
//                    records and URL rules name; no file of the site lives there)
//   <site>/ts/*      the companion (tunesmith/server): the page's only door to the service;
//                    it adds the key, takes the service's callbacks and pushes stages as events
//   <site>/demo/*    the demo's own routes (top-up, the callbacks received), as under
//                    `cargo xtask demo`
//
// Bundled by `cargo xtask build` (xtask/src/site.rs) into one classic script, pkg/site/sw.js.
// The `fetch` listener is added as the script first runs; the wasm module, IndexedDB and the
// companion are woken inside the first `respondWith` that needs them. Requests the worker sends
// itself never reach its own fetch event, so the emulator and the companion call each other
// directly: the companion's requests to the service go to the emulator in-process, and the
// emulator's callbacks to the companion's URL are handed to the companion in-process.
// State lives in IndexedDB (vault.js): the browser may stop this worker whenever it is idle, and
// the next request wakes it where it was (work that fell due meanwhile is caught up then).
import initEmulator, { Emulator } from "tunesmith-pkg/emulator/tunesmith_emulator.js";
import { initSync as initClient } from "tunesmith-pkg/tunesmith.js";
import { createCompanion } from "tunesmith-pkg/server/companion.js";
import { memoryState } from "tunesmith-pkg/server/store-memory.js";
import { ROUTES } from "tunesmith-pkg/server/routes.js";
import { openVault } from "./vault.js";
import { receiveCallback, receivedSince, topUpCredits } from "./demo-routes.js";

/** Written by the build in front of this script: the site's files and a hash of them. */
const MANIFEST = self.__SITE_MANIFEST__ ?? { version: "dev", files: [] };
const CACHE = `tunesmith-site-${MANIFEST.version}`;
const SCOPE = new URL(self.registration.scope);
const BASE = SCOPE.href.replace(/\/$/, "");
const ORIGIN = SCOPE.origin;
const MUSIC = `${BASE}/music`;
const UPLOAD = ORIGIN;
const COMPANION = `${BASE}/ts`;
const DEMO = `${BASE}/demo`;
const PORT = SCOPE.port || (SCOPE.protocol === "https:" ? "443" : "80");
// Addresses the emulator's URL rules see for its own hosts (TEST-NET-1: never a real machine).
// This origin resolves to the upload host's: its file URLs are the ones a request may name.
const OWN_MUSIC = `192.0.2.1:${PORT}`;
const OWN_UPLOAD = `192.0.2.2:${PORT}`;
// Other hosts cannot be resolved from a page: a public address (TEST-NET-3) lets the emulator
// download them with the browser's own fetch.
const ELSEWHERE = "203.0.113.1";

// ---- The site's files ------------------------------------------------------------------------

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(MANIFEST.files.map((f) => new Request(new URL(f, SCOPE), { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith("tunesmith-site-") && name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

/** A file of the site: from the cache, else the network (kept for next time). */
async function staticFile(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request, { ignoreSearch: true });
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok && request.method === "GET") await cache.put(request, res.clone()).catch(() => {});
  return res;
}

/** The site's own file, read by the worker itself (its fetches skip its own fetch event). */
async function ownFile(path) {
  const url = new URL(path, SCOPE).href;
  const hit = await (await caches.open(CACHE)).match(url, { ignoreSearch: true });
  return hit ?? fetch(url);
}

// ---- The service, woken on demand ---------------------------------------------------------------

/** @type {Promise<{ emulator: Emulator, companion: Function, vault: any, received: any[] }> | null} */
let waking = null;
const awake = () => (waking ??= wake().catch((e) => {
  waking = null;
  throw e;
}));

async function wake() {
  const [vault, config] = await Promise.all([
    openVault(),
    ownFile("companion.json").then((r) => r.json()).catch(() => ({})),
    ownFile("emulator.wasm").then((r) => initEmulator({ module_or_path: r })),
    // The client's module, whose request checks and callback parser the companion runs.
    // Its init fetches a URL (which a worker's own fetch takes from the network, not the cache):
    // it is handed the compiled module instead.
    ownFile("pkg/tunesmith_full_bg.wasm")
      .then((r) => r.arrayBuffer())
      .then((bytes) => WebAssembly.compile(bytes))
      .then((module) => initClient({ module })),
  ]);
  // The key: made once per browser, kept in IndexedDB, known to the emulator and the companion
  // only. No file of the site holds it and no answer to the page carries it.
  let key = vault.get("key");
  if (!key) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    key = `ts-site-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
    vault.set("key", key);
  }
  const settings = config.emulator ?? {};
  const args = ["--api-key", key, "--stage-delay-ms", String(settings.stageDelayMs ?? 1500), ...(settings.args ?? [])];
  const received = vault.get("received") ?? [];
  const service = { vault, received, key, emulator: null, companion: null };
  const host = { ...vault.storage, ...outbound(service) };
  service.emulator = new Emulator(args, MUSIC, UPLOAD, OWN_MUSIC, OWN_UPLOAD, false, "/emulator", host);
  // The companion's state, as fileStore keeps it, in IndexedDB.
  const saved = vault.get("companion") ?? {};
  const state = {
    values: new Map(saved.values ?? []),
    lists: new Map(saved.lists ?? []),
    sets: new Map((saved.sets ?? []).map(([k, m]) => [k, new Map(m)])),
  };
  const save = () => vault.set("companion", {
    values: [...state.values],
    lists: [...state.lists],
    sets: [...state.sets].map(([k, m]) => [k, [...m]]),
  });
  service.companion = createCompanion({
    apiKey: key,
    baseUrl: MUSIC,
    uploadUrl: UPLOAD,
    publicUrl: COMPANION,
    // The demo has one user: the person at this browser.
    authorize: () => "demo",
    allow: [...new Set(ROUTES.map((route) => route.operation))],
    store: memoryState(state, save).store,
    limits: { requestsPerWindow: 600, tasksInFlight: 20 },
    forwardHeaders: ["x-emulate-code"],
    fetch: (input, init) => emulatorFetch(service, new Request(input, init)),
    log: (line) => console.warn(line),
  });
  return service;
}

/** Which of the emulator's hosts serves `url`, and the path and query it sees there. */
function emulatorTarget(url) {
  if (url.origin !== ORIGIN) return null;
  const p = url.pathname;
  if (p === new URL(MUSIC).pathname || p.startsWith(`${new URL(MUSIC).pathname}/`)) {
    return { host: "music", path: (p.slice(new URL(MUSIC).pathname.length) || "/") + url.search };
  }
  if (p.startsWith("/api/file-") || p.startsWith("/files/") || p.startsWith("/download/")) {
    return { host: "upload", path: p + url.search };
  }
  return null;
}

/** One request to the emulator, answered in-process. */
async function emulatorFetch(service, request) {
  const url = new URL(request.url);
  const target = emulatorTarget(url);
  if (!target) {
    // Nothing else is reachable from the companion: it only ever talks to the service.
    throw new TypeError(`fetch failed: ${url.origin}${url.pathname} is not one of the emulator's hosts`);
  }
  const headers = [];
  for (const [k, v] of request.headers) headers.push(k, v);
  headers.push("host", url.host);
  const body = request.method === "GET" || request.method === "HEAD" ? new Uint8Array(0) : new Uint8Array(await request.arrayBuffer());
  const res = await service.emulator.handle(target.host, request.method, target.path, headers, body);
  const noBody = request.method === "HEAD" || [101, 204, 205, 304].includes(res.status);
  return new Response(noBody ? null : res.body, { status: res.status, headers: res.headers });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 2 ** 31 - 1)));

/** The emulator's timers and outbound HTTP (emulator/wasm/src/host.rs names each function). */
function outbound(service) {
  return {
    sleep,
    post: async (url, body, timeoutMs) => {
      const attempt = (async () => {
        const init = { method: "POST", headers: { "content-type": "application/json" }, body };
        if (url.startsWith(`${COMPANION}/`)) {
          const res = await callback(service, new Request(url, init));
          return res.status === 200;
        }
        const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
        await res.arrayBuffer();
        return res.status === 200;
      })().catch(() => false);
      return Promise.race([attempt, sleep(timeoutMs).then(() => false)]);
    },
    resolve: async (host, port) => {
      const at = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
      return at === `${SCOPE.hostname}:${PORT}` || at === `${SCOPE.host}:${port}` ? OWN_UPLOAD : `${ELSEWHERE}:${port}`;
    },
    get: async (url, host) => {
      let target = new URL(url);
      // A URL of this origin, pinned by the URL rules to the address they gave it: this origin's again.
      if (target.host === OWN_UPLOAD && host === SCOPE.host) target = new URL(target.pathname + target.search, ORIGIN);
      const res = emulatorTarget(target) ? await emulatorFetch(service, new Request(target)) : await fetch(target, { signal: AbortSignal.timeout(30_000) });
      return { status: res.status, body: new Uint8Array(await res.arrayBuffer()) };
    },
  };
}

// ---- The demo's own routes (as xtask/src/demo-companion.mjs serves them) -----------------------

function answer(status, body) {
  return new Response(body === null ? null : JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });
}

/** A callback to the companion, remembered with what the companion did with it. */
async function callback(service, request) {
  const response = await receiveCallback(service.companion, request, service.received);
  service.vault.set("received", service.received);
  return response;
}

async function demoRoute(service, request, path) {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== ORIGIN) return answer(403, { code: 403, msg: "not the demo page's origin" });
  if (path === "/credits" && request.method === "POST") {
    const { credits, refused } = await topUpCredits(request);
    if (refused) return answer(400, refused);
    const res = await emulatorFetch(service, new Request(`${MUSIC}/_emulator/credits`, {
      method: "POST",
      headers: { authorization: `Bearer ${service.key}`, "content-type": "application/json" },
      body: JSON.stringify({ credits }),
    }));
    if (!res.ok) return answer(502, { code: 502, msg: `the emulator refused the top-up (HTTP ${res.status})` });
    return answer(200, { code: 200, msg: "topped up", credits });
  }
  if (path === "/callbacks" && request.method === "GET") {
    return answer(200, receivedSince(request, service.received));
  }
  return answer(404, { code: 404, msg: "not a route of the demo" });
}

// ---- Routing ----------------------------------------------------------------------------------

const under = (url, base) => url.href === base || url.href.startsWith(`${base}/`) || url.href.startsWith(`${base}?`);

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== ORIGIN) return;
  let handled;
  if (under(url, COMPANION)) {
    handled = awake().then((s) => (request.method === "POST" && url.pathname.startsWith(`${new URL(COMPANION).pathname}/callbacks/`) ? callback(s, request) : s.companion(request)));
  } else if (under(url, DEMO)) {
    handled = awake().then((s) => demoRoute(s, request, url.pathname.slice(new URL(DEMO).pathname.length)));
  } else if (emulatorTarget(url)) {
    handled = awake().then((s) => emulatorFetch(s, request));
  } else if (request.method === "GET") {
    event.respondWith(staticFile(request));
    return;
  } else {
    return;
  }
  const answered = handled.catch((e) => {
    console.error(e);
    return answer(503, { code: 503, msg: `the demo's service worker failed: ${e?.message ?? e}` });
  });
  event.respondWith(answered);
  // What the request changed is written to IndexedDB before the browser may stop the worker.
  event.waitUntil(answered.then(() => waking?.then((s) => s.vault.flushed())).catch(() => {}));
});

// Tests and the page may ask the worker to write everything now.
self.addEventListener("message", (event) => {
  if (event.data === "flush") event.waitUntil(waking?.then((s) => s.vault.flushed()) ?? Promise.resolve());
});
