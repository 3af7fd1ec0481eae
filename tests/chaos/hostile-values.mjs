// Chaos: hostile JS values at every entry point of the package.
//
// Throwing getters, Proxies with throwing traps, revoked Proxies, cyclic objects, symbols, BigInts,
// functions, frozen objects, huge strings, sparse and lying arrays (and more: see _hostile.mjs) given
// to `new Client(options)` and each of its options, every method's request, request fields, options
// and `this`, the waiters' task ids and options, `watchTask`, the uploads' file and options, a
// `fetch` option that resolves with a hostile Response, `parseCallback`, `CallbackDeduper` (`new`,
// `isNew`, `forget`, `size`) and `validateRequest`. Calls answer from memory (a `fetch` option
// replaying the emulator's real answers), so that only the hostile value differs from a working call.
//
// First the matrix: every kind of hostile value in every slot (an argument or option of an entry
// point, see `slotTable`), in a fixed order, so that even a short run covers each pair; then
// `values` cases drawn at random. Goals: every throw and rejection is a TunesmithError, no Promise
// is left pending (unsettled after 90 s; one that settles after 3 s is counted as late, with its
// time, apart from the goals), and after every failure a known-good call against the real emulator, a
// known-good `parseCallback`, and the deduper that received the hostile values still work.
//
// A value can poison the wasm module (a panic traps the instance): then nothing in this module instance works any
// more. So the cases run in a worker thread; when its known-good check fails, the worker reports
// the case and stops, and a fresh worker (a fresh wasm instance) takes the next case.
// Env: TUNESMITH_TEST_MUSIC_URL, TUNESMITH_TEST_UPLOAD_URL, TUNESMITH_TEST_API_KEY, TUNESMITH_PKG,
// CHAOS_SCALE (1: 100,000 values).
// Over 400 lines on purpose: one table of every entry point of the package (`slotTable`), each
// given every kind of hostile value.
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  Examples, FAST, WAITERS, atLeast, describe, env, goal, importPackage, operations, recordAnswers, report,
  requireEmulator, rng, scale, scaled, settle, tinyWav,
  isMain,
} from "./_lib.mjs";
import { Hostile, KINDS, hostile, pickKind, variants } from "./_hostile.mjs";

const NAME = "hostile-values";
const FILE = fileURLToPath(import.meta.url);
/**
 * Calls answer from memory within the attempt timeout (2 s): one unsettled after 3 s is "late", and
 * is waited for until `HANG_MS`. Only a call still unsettled then counts as pending (a hang); one
 * that settles late is counted apart with its time (a loaded machine, or a client left on the
 * defaults, which backs off 0.5 s and 1 s between its three attempts). The parent's watchdog stops
 * a worker silent for 120 s: a late case reports progress when it starts waiting.
 */
const PENDING_MS = 3000;
const HANG_MS = scale() < 1 ? 30_000 : 90_000;
const LANES = 32;

/** The core, exported for tests/js/chaos.test.mjs: returns `{ figures, goals }`. */
export async function run({ values = scaled(100_000, 300), seed = 1 } = {}) {
  requireEmulator(NAME);
  const pkg = await importPackage();
  const started = performance.now();
  const rec = await recordAnswers(pkg);
  const recordSeconds = Math.round((performance.now() - started) / 100) / 10;
  const slots = slotTable({ base: {}, ops: operations(rec.ids) });
  const matrixCases = slots.length * Object.keys(KINDS).length;
  const cases = matrixCases + values;
  const totals = {
    matrix: { slots: slots.length, kinds: Object.keys(KINDS).length, cases: matrixCases },
    // What the matrix reached: the options of each kind, and every method called through a slot.
    surface: {
      ...SURFACE,
      methods: [...new Set(slots.filter((s) => ["method", "waiter", "watchTask", "upload"].includes(s.entry) && !s.name.startsWith("Client.prototype")).map((s) => s.name.split("(")[0]))],
    },
    matrixCasesRun: 0,
    probeErrors: 0,
    wasmTraps: 0,
    values: 0,
    accepted: 0,
    refused: 0,
    untypedErrors: 0,
    untypedSyncThrows: 0,
    pending: 0,
    late: 0,
    slowestLateMs: 0,
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
    lateExamples: {},
    slowExamples: {},
    uncaughtExceptions: 0,
    uncaughtExamples: {},
  };
  let next = 0;
  while (next < cases) {
    totals.workers++;
    const result = await new Promise((resolve) => {
      const w = new Worker(FILE, { workerData: { rec, from: next, to: cases, seed, matrixCases } });
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
  totals.pendingAfterMs = HANG_MS;
  totals.recordSeconds = recordSeconds;
  const goals = {
    values: atLeast(totals.values, cases),
    matrixCovered: atLeast(totals.matrixCasesRun, matrixCases),
    probeErrors: goal(totals.probeErrors, 0),
    untypedErrors: goal(totals.untypedErrors, 0),
    pendingPromises: goal(totals.pending, 0),
    panics: goal(totals.panics, 0),
    wasmTraps: goal(totals.wasmTraps, 0),
    brokenDedupers: goal(totals.brokenDedupers, 0),
    uncaughtExceptions: goal(totals.uncaughtExceptions, 0),
    unhandledRejections: goal(totals.unhandledRejections, 0),
  };
  return { figures: totals, goals };
}

function merge(into, from) {
  for (const [k, v] of Object.entries(from)) {
    if (k === "slowestLateMs") into[k] = Math.max(into[k] ?? 0, v);
    else if (typeof v === "number") into[k] = (into[k] ?? 0) + v;
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

// ---- Every argument and option of every entry point -----------------------------------------

/** The options each entry point documents (the suites hold these lists to the `.d.ts`). */
export const SURFACE = {
  client: ["apiKey", "companionUrl", "baseUrl", "uploadUrl", "serviceSegment", "timeoutMs", "uploadTimeoutMs", "maxRetries", "headers", "fetch", "dangerouslyAllowBrowser"],
  call: ["signal", "timeoutMs", "maxRetries", "headers", "extraFields", "wait"],
  wait: ["signal", "timeoutMs", "minIntervalMs", "maxIntervalMs", "onProgress"],
  upload: ["fileName", "uploadPath", "mimeType", "onProgress", "signal", "timeoutMs", "headers", "extraFields", "method", "maxRetries"],
};

/** How often a random case goes to each entry point (the matrix cases cover each slot equally). */
const ENTRY_WEIGHTS = [["client", 1], ["method", 4], ["waiter", 2], ["watchTask", 1], ["upload", 2], ["parseCallback", 2], ["deduper", 2], ["fetch", 1], ["validateRequest", 1]];

/** Runs a `watchTask` iterator to its end, closing it whatever happens. */
function drain(it) {
  return (async () => {
    try {
      for await (const _ of it);
    } finally {
      await it.return?.();
    }
  })();
}

/**
 * The slots: `{ entry, name, subs?, make(H, sub, r) }`, one per argument or option of each entry
 * point. `make` builds the call with `H(base)`, the hostile value, in the slot; a slot named with
 * `*` stands for each of its `subs` (a request field, an option), one per case.
 */
function slotTable(c) {
  const { Client, client, base, ops, ids, wav, waitOptions, callback, callbacks, freshEvent, victim, realResponse, validateRequest } = c;
  const slots = [];
  const add = (entry, name, make, subs) => slots.push({ entry, name, make, subs });
  const creates = new Set([...Object.values(WAITERS), "extend", "uploadCover", "uploadExtend", "addInstrumental", "addVocals", "generateSounds", "replaceSection", "mashup", "regenerateVoicePhrase"]);

  // new Client(options): the whole object, each option, a header's value.
  const withoutKey = { ...base, apiKey: undefined, companionUrl: "http://127.0.0.1:1" };
  add("client", "new Client(options)", (H) => {
    const opts = H(base);
    return () => new Client(opts).getCredits();
  });
  for (const field of SURFACE.client) {
    add("client", `new Client(options.${field})`, (H) => {
      const opts = field === "companionUrl" ? { ...withoutKey, companionUrl: H(withoutKey.companionUrl) } : { ...base, [field]: H(base[field] ?? (field === "headers" ? { "x-a": "1" } : undefined)) };
      return () => new Client(opts).getCredits();
    });
  }
  add("client", "new Client(options.headers.x-a)", (H) => {
    const opts = { ...base, headers: { "x-a": H("1") } };
    return () => new Client(opts).getCredits();
  });

  // Every operation: its request, each request field, its options, each option (and the fields of
  // `headers`, `extraFields` and `wait`), and `this`.
  const optionBase = { signal: () => new AbortController().signal, timeoutMs: () => 1000, maxRetries: () => 0, headers: () => ({ "x-a": "1" }), extraFields: () => ({ k: 1 }), wait: () => waitOptions };
  const optionSubs = [...SURFACE.call, "headers.x-a", "extraFields.k", ...SURFACE.wait.map((f) => `wait.${f}`)];
  for (const op of Object.keys(ops)) {
    add("method", `${op}(request)`, (H) => {
      const req = H(ops[op]);
      return () => client[op](req);
    });
    const fields = [...Object.keys(ops[op]), "unknownField", ...(creates.has(op) ? ["wait"] : [])];
    add("method", `${op}(request.*)`, (H, field) => {
      const req = { ...ops[op], [field]: H(field === "wait" ? waitOptions : ops[op][field]) };
      return () => client[op](req);
    }, fields);
    add("method", `${op}(_, options)`, (H) => {
      const opts = H({ maxRetries: 0 });
      return () => client[op](ops[op], opts);
    });
    add("method", `${op}(_, options.*)`, (H, sub) => {
      const [field, inner] = sub.split(".");
      const value = optionBase[field]();
      const opts = { [field]: inner === undefined ? H(value) : { ...value, [inner]: H(value[inner] ?? (inner === "signal" ? new AbortController().signal : () => {})) } };
      return () => client[op](ops[op], opts);
    }, optionSubs);
  }
  add("method", "Client.prototype.*.call(this)", (H, op) => {
    const self = H(client);
    return () => Client.prototype[op].call(self, ops[op]);
  }, [...Object.keys(ops), ...Object.keys(WAITERS), "uploadBase64", "uploadFromUrl", "uploadFile", "watchTask"]);

  // The waiters and watchTask: the task id, the options, each option.
  const waiterBase = { signal: () => new AbortController().signal, onProgress: () => () => {} };
  for (const waiter of [...Object.keys(WAITERS), "watchTask"]) {
    const entry = waiter === "watchTask" ? "watchTask" : "waiter";
    const call = (taskId, opts) => (waiter === "watchTask" ? () => drain(client.watchTask(taskId, opts)) : () => client[waiter](taskId, opts));
    add(entry, `${waiter}(taskId)`, (H, _, r) => call(H(r.chance(0.5) ? ids.taskId : { taskId: ids.taskId }), waitOptions));
    add(entry, `${waiter}(_, options)`, (H) => call(ids.taskId, H(waitOptions)));
    add(entry, `${waiter}(_, options.*)`, (H, field) => call(ids.taskId, { ...waitOptions, [field]: H(waiterBase[field]?.() ?? waitOptions[field]) }), SURFACE.wait);
  }

  // The uploads: the file (or data, or URL), the options, each option.
  const uploadBase = { fileName: "h.wav", uploadPath: "up", mimeType: "audio/wav", onProgress: () => {}, signal: new AbortController().signal, timeoutMs: 1000, headers: {}, extraFields: { k: 1 }, method: "auto", maxRetries: 0 };
  for (const op of ["uploadBase64", "uploadFromUrl", "uploadFile"]) {
    const data = () => ({ uploadBase64: wav, uploadFromUrl: ids.downloadUrl, uploadFile: new Blob([wav], { type: "audio/wav" }) })[op];
    const opts = { fileName: "h.wav" };
    add("upload", `${op}(file)`, (H) => {
      const v = H(data());
      return () => client[op](v, opts);
    });
    add("upload", `${op}(_, options)`, (H) => {
      const v = H(opts);
      return () => client[op](data(), v);
    });
    for (const field of SURFACE.upload) {
      add("upload", `${op}(_, options.${field})`, (H) => {
        const v = { ...opts, [field]: H(uploadBase[field]) };
        return () => client[op](data(), v);
      });
    }
  }

  // parseCallback: the body, and a value somewhere inside it.
  const sample = (r) => structuredClone(r.pick(callbacks.length ? callbacks : [callback]));
  add("parseCallback", "parseCallback(body)", (H, _, r) => {
    const v = H(sample(r));
    return () => c.parseCallback(v);
  });
  const inside = [
    ["body", (b) => b],
    ["data", (b) => (b.data && typeof b.data === "object" ? b.data : null)],
    ["data.data[0]", (b) => (Array.isArray(b.data?.data) && b.data.data.length ? b.data.data[0] : null)],
  ];
  for (const [where, holderOf] of inside) {
    add("parseCallback", `parseCallback(${where}.*)`, (H, _, r) => {
      const body = sample(r);
      const holder = holderOf(body) ?? body;
      const key = Object.keys(holder).length ? r.pick(Object.keys(holder)) : "x";
      holder[key] = H(holder[key]);
      return () => c.parseCallback(body);
    });
  }
  add("parseCallback", "parseCallback(data.data)", (H, _, r) => {
    const body = sample(r);
    if (body.data && typeof body.data === "object") body.data.data = H(body.data.data ?? []);
    else body.data = { data: H([]) };
    return () => c.parseCallback(body);
  });

  // CallbackDeduper: its options, and the events its methods take.
  add("deduper", "new CallbackDeduper(options)", (H) => deduperWith(c, H({ maxEntries: 10 })));
  add("deduper", "new CallbackDeduper(options.maxEntries)", (H) => deduperWith(c, { maxEntries: H(10) }));
  for (const method of ["isNew", "forget"]) {
    add("deduper", `deduper.${method}(event)`, (H) => {
      const v = H(freshEvent());
      return () => [victim()[method](v), victim().size];
    });
    add("deduper", `deduper.${method}(event.data)`, (H) => {
      const v = { ...freshEvent(), data: H(freshEvent().data) };
      return () => [victim()[method](v), victim().size];
    });
  }

  // The `fetch` option resolves with a hostile Response, or one with hostile parts.
  for (const part of ["response", "status", "headers", "headers.get", "text"]) {
    add("fetch", `fetch -> ${part}`, (H) => {
      const make = () => {
        const resp = realResponse();
        if (part === "response") return H(resp);
        if (part === "headers.get") resp.headers = { get: H(() => null) };
        else resp[part] = H(resp[part]);
        return resp;
      };
      const other = new Client({ ...base, fetch: async () => make() });
      return () => other.getCredits();
    });
  }

  // validateRequest (the companion's check): the operation's name, the request, a field.
  add("validateRequest", "validateRequest(operation)", (H) => {
    const name = H("getTask");
    return () => validateRequest(name, ops.getTask);
  });
  add("validateRequest", "validateRequest(*, request)", (H, op) => {
    const req = H(ops[op]);
    return () => validateRequest(op, req);
  }, Object.keys(ops));
  add("validateRequest", "validateRequest(*, request.field)", (H, op, r) => {
    const keys = Object.keys(ops[op]);
    const field = keys.length ? r.pick(keys) : "x";
    const req = { ...ops[op], [field]: H(ops[op][field]) };
    return () => validateRequest(op, req);
  }, Object.keys(ops));
  return slots;
}


function deduperWith(c, options) {
  return () => {
    const d = new c.CallbackDeduper(options);
    const out = [d.isNew(c.callback), d.size];
    d.free();
    return out;
  };
}

// ---- The worker: runs cases until done or poisoned -------------------------------------------

async function worker({ rec, from, to, seed, matrixCases }) {
  // A hostile options object can leave a client on its defaults (the real service, global fetch):
  // nothing here may leave this machine, so the global fetch only reaches loopback.
  const loopbackFetch = globalThis.fetch;
  globalThis.fetch = (url, init) =>
    /^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(String(url))
      ? loopbackFetch(url, init)
      : Promise.reject(new TypeError(`chaos: no network beyond loopback (${String(url).slice(0, 60)})`));
  const pkg = await importPackage();
  const { Client, CallbackDeduper, TunesmithError, parseCallback } = pkg;
  // Internal to `tunesmith/server`, exported by the wasm glue: an entry point all the same.
  const glue = await import(pathToFileURL(resolve(env.pkg, "tunesmith.js")).href);
  const { validateRequest } = glue;
  // In Node a Client given no `fetch` sends through the package's own pool, not the global fetch
  // (node.js sets it with the glue's useFetch): a hostile options object leaves a client on the
  // service's real host, which the guard above never saw. Such a call went out to the network (or
  // waited for DNS), and took as long as the network and the client's backoff made it. Same guard.
  glue.useFetch(globalThis.fetch);
  const counts = {
    probeErrors: 0,
    matrixCasesRun: 0,
    wasmTraps: 0,
    callerCallbackThrows: 0,
    values: 0,
    accepted: 0,
    refused: 0,
    untypedErrors: 0,
    untypedSyncThrows: 0,
    pending: 0,
    late: 0,
    slowestLateMs: 0,
    panics: 0,
    brokenDedupers: 0,
    knownGoodChecks: 0,
    unhandledRejections: 0,
    byEntry: {},
    untypedByKind: {},
    untypedExamples: new Examples(),
    pendingExamples: new Examples(),
    lateExamples: new Examples(),
    slowExamples: new Examples(),
    uncaughtExceptions: 0,
    uncaughtExamples: new Examples(),
  };
  // A trap: the module's own RuntimeError, or what the glue's guardExports turns it into (the shipped
  // module panics by trapping, and the guard throws the internal TunesmithError in its place).
  const isTrap = (e) => e instanceof WebAssembly.RuntimeError || (e instanceof TunesmithError && e.kind === "internal");
  // An exception nobody can catch (thrown from a callback the package scheduled) would end a Node
  // process: count it, with the case that was running, and go on.
  let current = "";
  process.on("unhandledRejection", (reason) => {
    if (reason instanceof Hostile && /hostile promise/.test(reason.message)) return; // our own exotic value
    if (isTrap(reason)) counts.wasmTraps++;
    counts.unhandledRejections++;
    counts.uncaughtExamples.add("unhandledRejection", `${describe(reason)} during ${current}`);
  });
  process.on("uncaughtException", (error) => {
    if (isTrap(error)) counts.wasmTraps++;
    counts.uncaughtExceptions++;
    counts.uncaughtExamples.add("uncaughtException", `${describe(error)} during ${current}`);
  });

  // Answers from memory: per "METHOD path", the answer a working call gets.
  const good = new Map();
  for (const a of rec.answers) {
    const key = `${a.method} ${a.path}`;
    if (a.status !== 200 || !/"code":200/.test(a.text)) continue;
    // A finished task wins over a running one, so that waiters end at their first query.
    const done = /"status":"(SUCCESS|success|wait_validating)"|"successFlag":("SUCCESS"|1[,}])/.test(a.text);
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

  const waitOptions = { ...FAST, timeoutMs: 2000 };
  const realResponse = () => {
    const a = good.get(`GET /api/v1/generate/credit`) ?? rec.answers[0];
    return { status: a.status, ok: true, headers: new Headers(a.headers), text: async () => a.text };
  };
  const slots = slotTable({
    Client, CallbackDeduper, parseCallback, validateRequest, client, base, ops, ids, wav, waitOptions, callback, callbacks, freshEvent,
    victim: () => victim, realResponse,
  });
  const byEntry = {};
  for (const s of slots) (byEntry[s.entry] ??= []).push(s);
  const entries = ENTRY_WEIGHTS.flatMap(([entry, w]) => Array(w).fill(entry));
  const kindNames = Object.keys(KINDS);

  /**
   * Case `i`: `{ entry, slot, kind, thunk }`. Cases below `matrixCases` walk the matrix in order
   * (slot `i / kinds`, kind `i % kinds`, the variant and the sub-field turning with both); the rest
   * are drawn at random.
   */
  function buildCase(i) {
    const r = rng(seed * 9_000_011 + i);
    let slot, kind, variant, sub;
    if (i < matrixCases) {
      const s = Math.floor(i / kindNames.length);
      const k = i % kindNames.length;
      slot = slots[s];
      kind = kindNames[k];
      variant = (s * 7 + k) % variants(kind);
      sub = slot.subs?.[(s + k) % slot.subs.length];
    } else {
      slot = r.pick(byEntry[r.pick(entries)]);
      kind = pickKind(r);
      sub = slot.subs && r.pick(slot.subs);
    }
    const H = (b) => hostile(kind, b, r, reenter, variant);
    const name = sub === undefined ? slot.name : slot.name.replace("*", sub);
    return { entry: slot.entry, slot: name, kind, thunk: slot.make(H, sub, r) };
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
      let c;
      try {
        c = buildCase(i);
      } catch (e) {
        // The probe's own bug (a hostile value it could not build), not the package's: counted.
        counts.probeErrors++;
        counts.untypedExamples.add("probe", `case ${i}: ${describe(e)}`);
        continue;
      }
      counts.values++;
      if (i < matrixCases) counts.matrixCasesRun++;
      counts.byEntry[c.entry] = (counts.byEntry[c.entry] ?? 0) + 1;
      current = `case ${i}: ${c.slot} <- ${c.kind}`;
      if (process.env.CHAOS_DEBUG) console.error(current);
      const t0 = performance.now();
      let promise;
      let out = await settle(() => (promise = c.thunk()), PENDING_MS);
      if (out.how === "pending") {
        // Late: waited for until HANG_MS, so that a slow answer is told from one that never comes.
        parentPort.postMessage(json({ counts, at: nextCase - 1, partial: true }));
        out = await settle(() => promise, HANG_MS - (performance.now() - t0));
        const ms = Math.round(performance.now() - t0);
        if (out.how !== "pending") {
          counts.late++;
          counts.slowestLateMs = Math.max(counts.slowestLateMs, ms);
          counts.lateExamples.add(c.entry, `${ms} ms ${c.slot} <- ${c.kind} (${out.how})`);
        }
      }
      const ms = performance.now() - t0;
      if (ms > 1000 && ms <= PENDING_MS && out.how !== "pending") counts.slowExamples.add(c.entry, `${Math.round(ms)} ms ${c.slot} <- ${c.kind} (${out.how})`);
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
        counts.pendingExamples.add(c.entry, `${c.slot} <- ${c.kind} (unsettled after ${HANG_MS} ms)`);
      } else if (isTrap(out.error)) {
        // A panic (or any trap) in the module: whether or not it still answers after, it is one.
        counts.wasmTraps++;
        counts.untypedExamples.add("trap", `${out.how} ${describe(out.error)} at ${c.slot} <- ${c.kind}`);
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
