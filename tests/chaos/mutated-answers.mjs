// Chaos: mutated service answers through the client's `fetch` option.
//
// Real answers of every operation are recorded from the emulator, then mutated (keys dropped or
// renamed, wrong types, null, huge, negative and NaN-ish numbers, deep nesting, truncated JSON,
// non-JSON bodies, odd statuses and headers, dropped connections) and fed to every method: creates
// (with and without `wait`), queries, waiters with short schedules, uploads, and `parseCallback` /
// `CallbackDeduper` on mutated callback bodies. Goals: every rejection (and synchronous throw) is a
// TunesmithError, no Promise is left pending, and after every failure a known-good call against the
// real emulator (and a known-good `parseCallback`) still works, so no wasm panic poisoned the module.
// Env: TUNESMITH_TEST_MUSIC_URL, TUNESMITH_TEST_UPLOAD_URL, TUNESMITH_TEST_API_KEY, TUNESMITH_PKG,
// CHAOS_SCALE (1: 100,000 answers and 20,000 callback bodies).
import {
  Examples, FAST, WAITERS, atLeast, describe, env, goal, importPackage, operations, pool, recordAnswers,
  report, requireEmulator, rng, scaled, settle, tinyWav,
  isMain,
} from "./_lib.mjs";
import { TRANSPORT, mutateAnswer, mutateValue } from "./_mutate.mjs";

const NAME = "mutated-answers";
requireEmulator(NAME);

/** The core, exported for tests/js/chaos.test.mjs: returns `{ figures, goals }`. */
export async function run({ answers: target = scaled(100_000, 200), callbacks: callbackTarget = scaled(20_000, 50), seed = 1 } = {}) {
  const pkg = await importPackage();
  const { Client, TunesmithError, CallbackDeduper, parseCallback } = pkg;
  const started = performance.now();
  const rec = await recordAnswers(pkg);
  const byPath = new Map();
  for (const a of rec.answers) {
    const key = `${a.method} ${a.path}`;
    if (!byPath.has(key)) byPath.set(key, []);
    byPath.get(key).push(a);
  }
  const ops = operations(rec.ids);
  const wav = tinyWav(64);
  const good = new Client({ apiKey: env.key, baseUrl: env.music, uploadUrl: env.upload });
  const goodCallback = rec.callbacks.find((b) => b && typeof b === "object");

  const f = {
    answersFed: 0,
    calls: 0,
    accepted: 0,
    refused: 0,
    acceptedWithoutPromisedField: 0,
    untypedRejections: 0,
    pending: 0,
    panics: 0,
    knownGoodChecks: 0,
    callbackBodies: 0,
    callbacksAccepted: 0,
    callbacksRefused: 0,
    recordedAnswers: rec.answers.length,
    recordedCallbacks: rec.callbacks.length,
    refusedByKind: {},
    untypedExamples: new Examples(),
    pendingExamples: new Examples(),
    acceptedOddExamples: new Examples(2),
    unhandledRejections: 0,
    unhandledExamples: new Examples(),
  };
  // A rejection nobody handles crashes a Node process by default: count it (it is the package's).
  let current = "";
  const onUnhandled = (reason) => {
    f.unhandledRejections++;
    f.unhandledExamples.add(describe(reason).slice(0, 40), current);
  };
  process.on("unhandledRejection", onUnhandled);

  /** After a failure: the module still answers a real call and parses a real callback. */
  async function knownGood() {
    f.knownGoodChecks++;
    const out = await settle(() => good.getCredits(), 20_000);
    let ok = out.how === "resolved" && Number.isFinite(out.value?.credits);
    if (goodCallback) {
      try {
        ok = ok && typeof parseCallback(goodCallback).taskId === "string";
      } catch {
        ok = false;
      }
    }
    if (!ok) f.panics++;
  }

  /** A fetch that answers from the recording, mutating each answer with probability `p`. */
  function mutatingFetch(r, p, labels) {
    return (url, init) => {
      const path = new URL(url).pathname;
      const real = r.pick(byPath.get(`${init?.method ?? "GET"} ${path}`) ?? rec.answers);
      if (!r.chance(p)) return Promise.resolve(new Response(real.text, { status: real.status, headers: real.headers }));
      f.answersFed++;
      if (r.chance(0.08)) {
        const t = r.pick(TRANSPORT);
        labels.push(t);
        switch (t) {
          case "reject-typeerror":
            return Promise.reject(new TypeError("fetch failed", { cause: new Error("other side closed") }));
          case "reject-string":
            return Promise.reject("socket hang up");
          case "reject-undefined":
            return Promise.reject(undefined);
          case "throw-sync":
            throw new TypeError("Failed to fetch");
          case "text-rejects":
            return Promise.resolve({ status: 200, headers: new Headers(), text: () => Promise.reject(new TypeError("terminated")) });
          case "text-hangs":
            return Promise.resolve({ status: 200, headers: new Headers(), text: () => new Promise(() => {}) });
          case "fetch-hangs":
            return new Promise(() => {});
          default:
            return Promise.resolve({ status: 200, headers: new Headers(), text: async () => r.pick([5, null, undefined, {}, [1], new Uint8Array(3)]) });
        }
      }
      const m = mutateAnswer(real, r);
      labels.push(m.label);
      if (!m.plain) {
        try {
          return Promise.resolve(new Response(m.text, { status: m.status, headers: m.headers }));
        } catch {
          // A header value the Headers class refuses: fall through to a Response-like object.
        }
      }
      const h = m.headers;
      return Promise.resolve({
        status: m.status,
        ok: m.status >= 200 && m.status < 300,
        headers: { get: (name) => h[String(name).toLowerCase()] ?? null },
        text: async () => m.text,
      });
    };
  }

  /** One call of `kind` with mutated answers; classifies how it ended. */
  async function oneCall(i) {
    const r = rng(seed * 1_000_003 + i);
    const labels = [];
    const fetch = mutatingFetch(r, 0.85, labels);
    const client = new Client({
      apiKey: env.key,
      baseUrl: "http://music.invalid",
      uploadUrl: "http://upload.invalid",
      fetch,
      timeoutMs: 300,
      uploadTimeoutMs: 300,
      maxRetries: r.chance(0.8) ? 0 : 1,
    });
    const kinds = ["op", "op", "op", "wait", "waiter", "upload"];
    const kind = r.pick(kinds);
    let op;
    let thunk;
    if (kind === "op" || kind === "wait") {
      op = r.pick(Object.keys(ops));
      const creates = Object.values(WAITERS).includes(op) || ["extend", "uploadCover", "uploadExtend", "addInstrumental", "addVocals"].includes(op);
      const options = kind === "wait" && creates ? { wait: { ...FAST, timeoutMs: 400 } } : {};
      thunk = () => client[op](ops[op], options);
    } else if (kind === "waiter") {
      op = r.pick(Object.keys(WAITERS));
      thunk = () => client[op](rec.ids.taskId, { ...FAST, timeoutMs: 400 });
    } else {
      op = r.pick(["uploadBase64", "uploadFromUrl", "uploadFile"]);
      if (op === "uploadBase64") thunk = () => client.uploadBase64(wav, { fileName: "m.wav" });
      else if (op === "uploadFromUrl") thunk = () => client.uploadFromUrl(rec.ids.downloadUrl, { fileName: "m.wav" });
      else thunk = () => client.uploadFile(new Blob([wav], { type: "audio/wav" }), { fileName: "m.wav" });
    }
    f.calls++;
    current = `${op} [${labels.join(" | ").slice(0, 200)}]`;
    // 300 ms attempts, at most one retry after a Retry-After capped at 60 s: 75 s is "never".
    const out = await settle(thunk, 75_000);
    const where = `${op} [${labels.join(" | ").slice(0, 200)}]`;
    if (out.how === "resolved") {
      f.accepted++;
      if (!promised(op, kind, out.value)) {
        f.acceptedWithoutPromisedField++;
        f.acceptedOddExamples.add(op, `${where} -> ${safeJson(out.value)}`);
      }
      return;
    }
    if (out.how === "pending") {
      f.pending++;
      f.pendingExamples.add(op, where);
    } else if (out.error instanceof TunesmithError) {
      f.refused++;
      f.refusedByKind[out.error.kind] = (f.refusedByKind[out.error.kind] ?? 0) + 1;
    } else {
      f.untypedRejections++;
      f.untypedExamples.add(op, `${out.how} ${describe(out.error)} at ${where}`);
    }
    await knownGood();
  }

  /** Whether a resolved value has what the documentation promises. */
  function promised(op, kind, v) {
    if (!v || typeof v !== "object") return false;
    if (kind === "upload") return typeof v.downloadUrl === "string" && v.downloadUrl.length > 0;
    if (op === "getCredits") return Number.isFinite(v.credits);
    if (typeof v.taskId === "string" && v.taskId.length > 0) return true;
    return op === "boostStyle" || op === "getTimestampedLyrics";
  }

  // Mutated answers, until enough were fed.
  const width = 400;
  let i = 0;
  await pool(width, width, async () => {
    while (f.answersFed < target) await oneCall(i++);
  });

  // Mutated callback bodies: parseCallback (object, text, bytes) and a deduper.
  const dedupers = [new CallbackDeduper(), new CallbackDeduper({ maxEntries: 16 })];
  const bodies = rec.callbacks.length ? rec.callbacks : [{ code: 200, msg: "success", data: { callbackType: "complete", task_id: "t", data: [] } }];
  for (let j = 0; j < callbackTarget; j++) {
    const r = rng(seed * 7_000_003 + j);
    const { value, label } = mutateValue(r.pick(bodies), r);
    const form = r.pick(["object", "text", "bytes", "deduper"]);
    let text;
    try {
      text = JSON.stringify(value) ?? "null";
    } catch {
      text = "null";
    }
    f.callbackBodies++;
    let out;
    if (form === "deduper") {
      const d = r.pick(dedupers);
      out = await settle(() => [d.isNew(value), d.forget(value), d.size], 5000);
    } else {
      const input = form === "object" ? value : form === "text" ? text : Buffer.from(text);
      out = await settle(() => parseCallback(input), 5000);
    }
    if (out.how === "resolved") f.callbacksAccepted++;
    else if (out.error instanceof TunesmithError) f.callbacksRefused++;
    else {
      f.untypedRejections++;
      f.untypedExamples.add(`callback-${form}`, `${out.how} ${describe(out.error)} at ${label}`);
    }
    if (out.how !== "resolved") await knownGood();
  }
  for (const d of dedupers) d.free();
  await new Promise((r) => setTimeout(r, 50));
  process.off("unhandledRejection", onUnhandled);

  f.seconds = Math.round((performance.now() - started) / 100) / 10;
  const goals = {
    answersFed: atLeast(f.answersFed, target),
    untypedRejections: goal(f.untypedRejections, 0),
    pendingPromises: goal(f.pending, 0),
    panics: goal(f.panics, 0),
    unhandledRejections: goal(f.unhandledRejections, 0),
  };
  return { figures: f, goals };
}

function safeJson(v) {
  try {
    return JSON.stringify(v)?.slice(0, 160);
  } catch {
    return String(v);
  }
}

if (isMain(import.meta.url)) {
  const { figures, goals } = await run();
  report(NAME, JSON.parse(JSON.stringify(figures)), goals);
  process.exit(process.exitCode ?? 0);
}
