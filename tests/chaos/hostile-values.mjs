// Chaos: hostile JS values at every entry point of the package.
//
// Throwing getters, Proxies with throwing traps, revoked Proxies, cyclic objects, symbols, BigInts,
// functions, frozen objects, huge strings (and more: see _hostile.mjs) given to `new Client(options)`,
// every method's request and options, the waiters' task ids and options, `watchTask`, the uploads'
// file and options, a `fetch` option that resolves with a hostile Response, `parseCallback`, and
// `CallbackDeduper` (`new`, `isNew`, `forget`, `size`). Calls answer from memory (a `fetch` option
// replaying the emulator's real answers), so that only the hostile value differs from a working call.
// Goals: every throw and rejection is a TunesmithError, no Promise is left pending, and after every
// failure a known-good call against the real emulator, a known-good `parseCallback`, and the deduper
// that received the hostile values still work.
//
// A value can poison the wasm module (issue 13): then nothing in this module instance works any
// more. So the cases run in a worker thread; when its known-good check fails, the worker reports
// the case and stops, and a fresh worker (a fresh wasm instance) takes the next case.
// Env: TUNESMITH_TEST_MUSIC_URL, TUNESMITH_TEST_UPLOAD_URL, TUNESMITH_TEST_API_KEY, TUNESMITH_PKG,
// CHAOS_SCALE (1: 100,000 values).
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { fileURLToPath } from "node:url";
import {
  Examples, FAST, WAITERS, atLeast, describe, env, goal, importPackage, operations, recordAnswers, report,
  requireEmulator, rng, scaled, settle, tinyWav,
  isMain,
} from "./_lib.mjs";
import { Hostile, hostile, pickKind } from "./_hostile.mjs";

const NAME = "hostile-values";
const FILE = fileURLToPath(import.meta.url);
/** Calls answer from memory within the attempt timeout (2 s): unsettled after 3 s is "pending". */
const PENDING_MS = 3000;
const LANES = 32;

/** The core, exported for tests/js/chaos.test.mjs: returns `{ figures, goals }`. */
export async function run({ values = scaled(100_000, 300), seed = 1 } = {}) {
  requireEmulator(NAME);
  const pkg = await importPackage();
  const started = performance.now();
  const rec = await recordAnswers(pkg);
  const totals = {
    values: 0,
    accepted: 0,
    refused: 0,
    untypedErrors: 0,
    untypedSyncThrows: 0,
    pending: 0,
    panics: 0,
    brokenDedupers: 0,
    knownGoodChecks: 0,
    unhandledRejections: 0,
    workers: 0,
    byEntry: {},
    untypedByKind: {},
    untypedExamples: {},
    panicCases: [],
    pendingExamples: {},
    slowExamples: {},
    uncaughtExceptions: 0,
    uncaughtExamples: {},
  };
  let next = 0;
  while (next < values) {
    totals.workers++;
    const result = await new Promise((resolve) => {
      const w = new Worker(FILE, { workerData: { rec, from: next, to: values, seed } });
      let last = null;
      // A worker stuck for 2 minutes (a synchronous hang) is stopped and counted as crashed.
      let watchdog;
      const arm = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => {
          last = { ...(last ?? { counts: {}, at: next }), crashed: "no progress for 120 s" };
          w.terminate();
        }, 120_000);
      };
      arm();
      w.on("message", (m) => {
        last = m;
        arm();
        if (process.env.CHAOS_PROGRESS) console.error(`hostile-values: case ${m.at}, ${JSON.stringify(m.counts?.values)} values in this worker`);
      });
      w.on("exit", () => clearTimeout(watchdog));
      w.on("error", (e) => resolve({ ...(last ?? { counts: {}, at: next }), crashed: describe(e) }));
      w.on("exit", () => resolve(last ?? { counts: {}, at: next, crashed: "exited without a report" }));
    });
    merge(totals, result.counts ?? {});
    if (result.poisonedBy) totals.panicCases.push(`${result.poisonedAt}: ${result.poisonedBy}`);
    if (result.crashed) totals.panicCases.push(`worker crashed at ${result.at}: ${result.crashed}`);
    // A poisoned or crashed worker: a fresh one takes the next case.
    next = Math.max(next + 1, (result.at ?? next) + 1);
    if (result.done) break;
  }
  totals.panicCases = totals.panicCases.slice(0, 20);
  totals.seconds = Math.round((performance.now() - started) / 100) / 10;
  const goals = {
    values: atLeast(totals.values, values),
    untypedErrors: goal(totals.untypedErrors, 0),
    pendingPromises: goal(totals.pending, 0),
    panics: goal(totals.panics, 0),
    brokenDedupers: goal(totals.brokenDedupers, 0),
    uncaughtExceptions: goal(totals.uncaughtExceptions, 0),
    unhandledRejections: goal(totals.unhandledRejections, 0),
  };
  return { figures: totals, goals };
}

function merge(into, from) {
  for (const [k, v] of Object.entries(from)) {
    if (typeof v === "number") into[k] = (into[k] ?? 0) + v;
    else if (k.endsWith("Examples")) {
      for (const [key, list] of Object.entries(v)) {
        const mine = (into[k][key] ??= []);
        for (const item of list) if (mine.length < 3) mine.push(item);
      }
    } else if (v && typeof v === "object") {
      into[k] ??= {};
      for (const [key, n] of Object.entries(v)) into[k][key] = (into[k][key] ?? 0) + n;
    }
  }
}

// ---- The worker: runs cases until done or poisoned -------------------------------------------

async function worker({ rec, from, to, seed }) {
  // A hostile options object can leave a client on its defaults (the real service, global fetch):
  // nothing here may leave this machine, so the global fetch only reaches loopback.
  const loopbackFetch = globalThis.fetch;
  globalThis.fetch = (url, init) =>
    /^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(String(url))
      ? loopbackFetch(url, init)
      : Promise.reject(new TypeError(`chaos: no network beyond loopback (${String(url).slice(0, 60)})`));
  const pkg = await importPackage();
  const { Client, CallbackDeduper, TunesmithError, parseCallback } = pkg;
  const counts = {
    values: 0,
    accepted: 0,
    refused: 0,
    untypedErrors: 0,
    untypedSyncThrows: 0,
    pending: 0,
    panics: 0,
    brokenDedupers: 0,
    knownGoodChecks: 0,
    unhandledRejections: 0,
    byEntry: {},
    untypedByKind: {},
    untypedExamples: new Examples(),
    pendingExamples: new Examples(),
    slowExamples: new Examples(),
    uncaughtExceptions: 0,
    uncaughtExamples: new Examples(),
  };
  // An exception nobody can catch (thrown from a callback the package scheduled) would end a Node
  // process: count it, with the case that was running, and go on.
  let current = "";
  process.on("unhandledRejection", (reason) => {
    if (reason instanceof Hostile && /hostile promise/.test(reason.message)) return; // our own exotic value
    counts.unhandledRejections++;
    counts.uncaughtExamples.add("unhandledRejection", `${describe(reason)} during ${current}`);
  });
  process.on("uncaughtException", (error) => {
    counts.uncaughtExceptions++;
    counts.uncaughtExamples.add("uncaughtException", `${describe(error)} during ${current}`);
  });

  // Answers from memory: per "METHOD path", the answer a working call gets.
  const good = new Map();
  for (const a of rec.answers) {
    const key = `${a.method} ${a.path}`;
    if (a.status !== 200 || !/"code":200/.test(a.text)) continue;
    // A finished task wins over a running one, so that waiters end at their first query.
    const done = /"status":"SUCCESS"|"successFlag":("SUCCESS"|1[,}])/.test(a.text);
    if (!good.has(key) || (done && !good.get(key).done)) good.set(key, { ...a, done });
  }
  const memFetch = async (url, init) => {
    const a = good.get(`${init?.method ?? "GET"} ${new URL(url).pathname}`);
    return a ? new Response(a.text, { status: a.status, headers: a.headers }) : new Response("{}", { status: 404 });
  };
  const fake = "http://127.0.0.1:1";
  const base = { apiKey: env.key, baseUrl: fake, uploadUrl: fake, fetch: memFetch, timeoutMs: 2000, maxRetries: 0 };
  const client = new Client(base);
  const real = new Client({ apiKey: env.key, baseUrl: env.music, uploadUrl: env.upload });
  const ids = rec.ids;
  const ops = operations(ids);
  const callbacks = rec.callbacks.filter((b) => b && typeof b === "object");
  const callback = callbacks[0] ?? { code: 200, msg: "ok", data: { callbackType: "complete", task_id: "t", data: [] } };
  const wav = tinyWav(64);
  let victim = new CallbackDeduper();
  let fresh = 0;
  const freshEvent = () => ({ ...callback, data: { ...callback.data, task_id: `fresh-${from}-${fresh++}` } });
  const reenter = () => {
    victim.isNew(callback);
    parseCallback(callback);
  };

  const clientFields = ["apiKey", "baseUrl", "uploadUrl", "serviceSegment", "timeoutMs", "uploadTimeoutMs", "maxRetries", "headers", "fetch", "dangerouslyAllowBrowser"];
  const optionFields = ["signal", "timeoutMs", "maxRetries", "headers", "extraFields", "wait"];
  const waitFields = ["signal", "timeoutMs", "minIntervalMs", "maxIntervalMs", "onProgress"];
  const uploadFields = ["fileName", "uploadPath", "mimeType", "onProgress", "signal", "timeoutMs", "headers", "method", "maxRetries"];
  const waitOptions = { ...FAST, timeoutMs: 2000 };
  const realResponse = () => {
    const a = good.get(`GET /api/v1/generate/credit`) ?? rec.answers[0];
    return { status: a.status, ok: true, headers: new Headers(a.headers), text: async () => a.text };
  };

  /** Case `i`: `{ entry, slot, kind, thunk }`. */
  function buildCase(i) {
    const r = rng(seed * 9_000_011 + i);
    const kind = pickKind(r);
    const H = (b) => hostile(kind, b, r, reenter);
    const entry = r.pick(["client", "method", "method", "method", "method", "waiter", "waiter", "watchTask", "upload", "upload", "parseCallback", "parseCallback", "deduper", "deduper", "fetch"]);
    let slot;
    let thunk;
    if (entry === "client") {
      if (r.chance(0.15)) {
        slot = "options";
        const opts = H(base);
        thunk = () => new Client(opts).getCredits();
      } else {
        slot = r.pick(clientFields);
        const opts = { ...base, [slot]: H(base[slot] ?? (slot === "headers" ? { "x-a": "1" } : undefined)) };
        if (slot === "headers" && r.chance(0.5)) opts.headers = { "x-a": H("1") };
        thunk = () => new Client(opts).getCredits();
      }
    } else if (entry === "method") {
      const op = r.pick(Object.keys(ops));
      const roll = r.int(6);
      if (roll === 0) {
        slot = `${op}(request)`;
        const req = H(ops[op]);
        thunk = () => client[op](req);
      } else if (roll <= 2) {
        const keys = Object.keys(ops[op]);
        const field = keys.length && r.chance(0.85) ? r.pick(keys) : "unknownField";
        slot = `${op}(request.${field})`;
        const req = { ...ops[op], [field]: H(ops[op][field]) };
        thunk = () => client[op](req);
      } else if (roll === 3) {
        slot = `${op}(_, options)`;
        const opts = H({ maxRetries: 0 });
        thunk = () => client[op](ops[op], opts);
      } else {
        const field = r.pick(optionFields);
        slot = `${op}(_, options.${field})`;
        const baseValue = { signal: new AbortController().signal, timeoutMs: 1000, maxRetries: 0, headers: { "x-a": "1" }, extraFields: { k: 1 }, wait: waitOptions }[field];
        let value = H(baseValue);
        if ((field === "headers" || field === "extraFields" || field === "wait") && r.chance(0.5)) {
          const inner = Object.keys(baseValue);
          const k = r.pick(inner);
          value = { ...baseValue, [k]: H(baseValue[k]) };
          slot += `.${k}`;
        }
        thunk = () => client[op](ops[op], { [field]: value });
      }
    } else if (entry === "waiter" || entry === "watchTask") {
      const waiter = entry === "watchTask" ? "watchTask" : r.pick(Object.keys(WAITERS));
      const roll = r.int(3);
      let taskId = ids.taskId;
      let opts = waitOptions;
      if (roll === 0) {
        slot = `${waiter}(taskId)`;
        taskId = H(r.chance(0.5) ? ids.taskId : { taskId: ids.taskId });
      } else if (roll === 1) {
        slot = `${waiter}(_, options)`;
        opts = H(waitOptions);
      } else {
        const field = r.pick(waitFields);
        slot = `${waiter}(_, options.${field})`;
        opts = { ...waitOptions, [field]: H({ signal: new AbortController().signal, onProgress: () => {} }[field] ?? waitOptions[field]) };
      }
      if (entry === "watchTask") {
        thunk = () => {
          const it = client.watchTask(taskId, opts);
          return (async () => {
            try {
              for await (const _ of it);
            } finally {
              await it.return?.();
            }
          })();
        };
      } else thunk = () => client[waiter](taskId, opts);
    } else if (entry === "upload") {
      const op = r.pick(["uploadBase64", "uploadFromUrl", "uploadFile"]);
      const data = { uploadBase64: wav, uploadFromUrl: ids.downloadUrl, uploadFile: new Blob([wav], { type: "audio/wav" }) }[op];
      const opts = { fileName: "h.wav" };
      const roll = r.int(3);
      if (roll === 0) {
        slot = `${op}(file)`;
        const v = H(data);
        thunk = () => client[op](v, opts);
      } else if (roll === 1) {
        slot = `${op}(_, options)`;
        const v = H(opts);
        thunk = () => client[op](data, v);
      } else {
        const field = r.pick(uploadFields);
        slot = `${op}(_, options.${field})`;
        const baseValue = { fileName: "h.wav", uploadPath: "up", mimeType: "audio/wav", onProgress: () => {}, signal: new AbortController().signal, timeoutMs: 1000, headers: {}, method: "auto", maxRetries: 0 }[field];
        const v = { ...opts, [field]: H(baseValue) };
        thunk = () => client[op](data, v);
      }
    } else if (entry === "parseCallback") {
      if (r.chance(0.3)) {
        slot = "parseCallback(body)";
        const v = H(r.pick(callbacks.length ? callbacks : [callback]));
        thunk = () => parseCallback(v);
      } else {
        const body = structuredClone(r.pick(callbacks.length ? callbacks : [callback]));
        // A hostile value somewhere inside: top level, data, or one track.
        const holders = [["body", body]];
        if (body.data && typeof body.data === "object") holders.push(["data", body.data]);
        const list = body.data?.data;
        if (Array.isArray(list) && list.length) holders.push(["data.data[0]", list[0]], ["data.data", list]);
        const [where, holder] = r.pick(holders);
        const keys = Object.keys(holder);
        const key = keys.length ? r.pick(keys) : "x";
        holder[key] = H(holder[key]);
        slot = `parseCallback(${where}.${key})`;
        thunk = () => parseCallback(body);
      }
    } else if (entry === "deduper") {
      const roll = r.int(4);
      if (roll === 0) {
        slot = "new CallbackDeduper(options)";
        const v = r.chance(0.5) ? H({ maxEntries: 10 }) : { maxEntries: H(10) };
        thunk = () => {
          const d = new CallbackDeduper(v);
          const out = [d.isNew(callback), d.size];
          d.free();
          return out;
        };
      } else {
        const method = roll === 1 ? "forget" : "isNew";
        slot = `deduper.${method}(event)`;
        const v = r.chance(0.6) ? H(freshEvent()) : { ...freshEvent(), data: H(freshEvent().data) };
        thunk = () => [victim[method](v), victim.size];
      }
    } else {
      // The `fetch` option resolves with a hostile Response (or one with hostile parts).
      const part = r.pick(["response", "status", "headers", "headers.get", "text"]);
      slot = `fetch -> ${part}`;
      const make = () => {
        const resp = realResponse();
        if (part === "response") return H(resp);
        if (part === "headers.get") resp.headers = { get: H(() => null) };
        else resp[part] = H(resp[part]);
        return resp;
      };
      const c = new Client({ ...base, fetch: async () => make() });
      thunk = () => c.getCredits();
    }
    return { entry, slot, kind, thunk };
  }

  /** After a failure: the real client, a parse and the decks still work. False: poisoned. */
  async function knownGood() {
    counts.knownGoodChecks++;
    const out = await settle(() => real.getCredits(), 10_000);
    if (out.how !== "resolved" || !Number.isFinite(out.value?.credits)) return `getCredits ${out.how} ${describe(out.error)}`;
    try {
      if (typeof parseCallback(callback).taskId !== "string") return "parseCallback lost its taskId";
      const d = new CallbackDeduper();
      if (d.isNew(callback) !== true || d.size !== 1) return "a fresh deduper miscounts";
      d.free();
    } catch (e) {
      return `parseCallback or a fresh deduper: ${describe(e)}`;
    }
    try {
      const e = freshEvent();
      if (victim.isNew(e) !== true || typeof victim.size !== "number") throw new Error("miscounts");
    } catch (e) {
      counts.brokenDedupers++;
      counts.untypedExamples.add("broken-deduper", describe(e));
      victim = new CallbackDeduper();
    }
    return null;
  }

  // Cases run LANES at a time (a pending one costs PENDING_MS); `current` names the latest started.
  let nextCase = from;
  let poisonedBy = null;
  let poisonedAt;
  let sinceReport = 0;
  const lane = async () => {
    while (nextCase < to && !poisonedBy) {
      const i = nextCase++;
      const c = buildCase(i);
      counts.values++;
      counts.byEntry[c.entry] = (counts.byEntry[c.entry] ?? 0) + 1;
      current = `case ${i}: ${c.slot} <- ${c.kind}`;
      if (process.env.CHAOS_DEBUG) console.error(current);
      const t0 = performance.now();
      const out = await settle(c.thunk, PENDING_MS);
      const ms = performance.now() - t0;
      if (ms > 1000 && out.how !== "pending") counts.slowExamples.add(c.entry, `${Math.round(ms)} ms ${c.slot} <- ${c.kind} (${out.how})`);
      if (++sinceReport >= 200) {
        sinceReport = 0;
        parentPort.postMessage(json({ counts, at: nextCase - 1, partial: true }));
      }
      if (out.how === "resolved") {
        counts.accepted++;
        continue;
      }
      if (out.how === "pending") {
        counts.pending++;
        counts.pendingExamples.add(c.entry, `${c.slot} <- ${c.kind}`);
      } else if (out.error instanceof TunesmithError) {
        counts.refused++;
      } else if (out.how === "rejected" && c.slot.includes(".onProgress")) {
        // The caller's own callback threw: a waiter stops and rejects with exactly what it threw
        // (documented in WaitOptions.onProgress), as a hand-written SDK would. Not the package's.
        counts.callerCallbackThrows++;
      } else {
        counts.untypedErrors++;
        if (out.how === "sync-throw") counts.untypedSyncThrows++;
        counts.untypedByKind[c.kind] = (counts.untypedByKind[c.kind] ?? 0) + 1;
        counts.untypedExamples.add(c.entry, `${out.how} ${describe(out.error)} at ${c.slot} <- ${c.kind}`);
      }
      const poisoned = await knownGood();
      if (process.env.CHAOS_DEBUG) console.error(`  ${i} ${out.how} ${out.error ? describe(out.error) : ""}; known good: ${poisoned ?? "ok"}`);
      if (poisoned && !poisonedBy) {
        poisonedBy = `${c.slot} <- ${c.kind} (or one of the ${LANES - 1} cases beside it): ${poisoned}`;
        poisonedAt = i;
      }
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  if (poisonedBy) {
    counts.panics++;
    parentPort.postMessage(json({ counts, at: nextCase - 1, poisonedAt, poisonedBy }));
    return;
  }
  parentPort.postMessage(json({ counts, at: to, done: true }));
}

const json = (v) => JSON.parse(JSON.stringify(v));

if (!isMainThread) {
  await worker(workerData);
  // Let the last message go out; hung hostile Promises must not keep the worker alive.
  setTimeout(() => process.exit(0), 200);
} else if (isMain(import.meta.url)) {
  const { figures, goals } = await run();
  report(NAME, figures, goals);
  process.exit(process.exitCode ?? 0);
}
