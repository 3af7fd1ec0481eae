// Values a page can pass that once panicked the wasm module or left a Promise pending for ever: each
// is now refused with a ValidationError naming the field, before the network, and the client keeps
// working. (tests/chaos/hostile-values.mjs puts every kind of value in every slot; these name the
// cases.) Also: what a panic would do now, and empty URL options.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { execFile } from "node:child_process";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PKG = process.env.TUNESMITH_PKG ?? join(ROOT, "pkg");
const MUSIC = process.env.TUNESMITH_TEST_MUSIC_URL;
const UPLOAD = process.env.TUNESMITH_TEST_UPLOAD_URL;
const KEY = process.env.TUNESMITH_TEST_API_KEY;
const skip = !MUSIC || !UPLOAD || !KEY ? "needs the emulator (run by cargo xtask test)" : false;
const pkg = skip ? {} : await import(pathToFileURL(join(PKG, "node.js")).href);

/** A client of the emulator, and the requests it sent. */
function client() {
  const sent = [];
  const fetch = (url, init) => {
    sent.push(url);
    return globalThis.fetch(url, init);
  };
  return { c: new pkg.Client({ apiKey: KEY, baseUrl: MUSIC, uploadUrl: UPLOAD, fetch, maxRetries: 0 }), sent };
}

/** Settles `promise` within 5 s, or fails: a Promise left pending is the bug. */
async function rejection(promise) {
  let timer;
  const pending = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("still pending after 5 s")), 5000)));
  try {
    await Promise.race([promise, pending]);
  } catch (e) {
    return e;
  } finally {
    clearTimeout(timer);
  }
  assert.fail("resolved; a rejection was expected");
}

function assertRefused(error, field, rule) {
  assert.ok(error instanceof pkg.ValidationError, `${error?.constructor?.name}: ${error?.message}`);
  assert.equal(error.field, field, error.message);
  if (rule) assert.equal(error.rule, rule, error.message);
}

const hugeArray = () => Object.assign([], { length: 2 ** 32 - 1 });
const wav = new Uint8Array([82, 73, 70, 70, 36, 0, 0, 0, 87, 65, 86, 69, 102, 109, 116, 32]);

test("an array of length 2^32 - 1 (a sparse array) in an upload's options or URL: refused, naming the field", { skip }, async () => {
  const { c, sent } = client();
  // Collecting its items was a capacity overflow: `RuntimeError: unreachable`, the Promise pending.
  assertRefused(await rejection(c.uploadBase64(wav, { uploadPath: hugeArray() })), "uploadPath", "range");
  assertRefused(await rejection(c.uploadFile(new Blob([wav]), { fileName: hugeArray() })), "fileName", "range");
  assertRefused(await rejection(c.uploadFromUrl(hugeArray())), "fileUrl", "range");
  assertRefused(await rejection(c.uploadFromUrl("https://example.com/a.mp3", { uploadPath: [, , "x"] })), "uploadPath", "type");
  assertRefused(await rejection(c.mashup({ uploadUrlList: hugeArray(), customMode: false, model: "V5", callBackUrl: "https://e.com/cb" })), "request");
  assert.deepEqual(sent, []);
  assert.ok(Number.isFinite((await c.getCredits()).credits));
});

test("arrays and values that throw when read: refused naming the field, nothing thrown past the module", { skip }, async () => {
  const { c, sent } = client();
  const lengthThrows = new Proxy(["https://example.com/a.mp3"], {
    get: (t, k) => {
      if (k === "length") throw new Error("length");
      return t[k];
    },
  });
  assertRefused(await rejection(c.uploadFromUrl(lengthThrows)), "fileUrl", "type");
  assertRefused(await rejection(c.uploadBase64(wav, { uploadPath: lengthThrows })), "uploadPath", "type");
  const itemThrows = ["up"];
  Object.defineProperty(itemThrows, 0, { get: () => { throw new Error("item"); } });
  assertRefused(await rejection(c.uploadBase64(wav, { fileName: itemThrows })), "fileName[0]", "type");
  const timeoutThrows = Object.defineProperty({}, "timeoutMs", { get: () => { throw new Error("getter"); }, enumerable: true });
  assertRefused(await rejection(c.getCredits(undefined, timeoutThrows)), "timeoutMs", "type");
  assert.deepEqual(sent, []);
  assert.ok(Number.isFinite((await c.getCredits()).credits));
});

test("a value whose toJSON gives no JSON (undefined): refused naming it, where it was a throw and a pending Promise", { skip }, async () => {
  const { c, sent } = client();
  const noJson = { toJSON: () => undefined };
  assertRefused(await rejection(c.getTask(noJson)), "request", "type");
  assertRefused(await rejection(c.getCredits(undefined, { extraFields: noJson })), "extraFields", "type");
  assert.throws(() => pkg.parseCallback(noJson), (e) => e instanceof pkg.ValidationError && e.field === "body");
  assert.throws(() => new pkg.CallbackDeduper().isNew(noJson), (e) => e instanceof pkg.ValidationError && e.field === "event");
  assert.deepEqual(sent, []);
});

test("a signal or a Blob that is a Proxy, tampered with, or a look-alike: refused, or read once under catch", { skip }, async () => {
  const { c, sent } = client();
  const tampered = Object.defineProperty(new AbortController().signal, "aborted", { get: () => { throw new Error("aborted"); } });
  // A Proxy that answers the first reads and throws on the next: the client reads it only once.
  let reads = 0;
  const later = new Proxy(new AbortController().signal, {
    get: (t, k) => {
      if (++reads > 1) throw new Error("later");
      return Reflect.get(t, k);
    },
  });
  assertRefused(await rejection(c.getCredits(undefined, { signal: tampered })), "signal", "type");
  assert.deepEqual(sent, []);
  // The client keeps a signal of its own that follows the caller's (`AbortSignal.any`, under
  // catch): whether the runtime takes these (Node checks a signal by its properties) or refuses
  // them, nothing of theirs runs after the call has begun.
  const lookAlike = { aborted: false, addEventListener: () => assert.fail("called") };
  for (const signal of [later, lookAlike]) {
    const how = await c.getCredits(undefined, { signal }).then(
      () => "worked",
      (e) => (e instanceof pkg.ValidationError && e.field === "signal" ? "refused" : `untyped: ${e}`),
    );
    assert.ok(how === "worked" || how === "refused", how);
  }
  const readsThen = reads;
  await c.getCredits();
  assert.equal(reads, readsThen);
  // A Proxy that only forwards is the signal it wraps.
  assert.ok((await rejection(c.getCredits(undefined, { signal: new Proxy(AbortSignal.abort(), {}) }))) instanceof pkg.AbortError);
  const blobLike = { size: 4, type: "audio/wav", name: "a.wav", arrayBuffer: async () => wav.buffer };
  const before = sent.length;
  assertRefused(await rejection(c.uploadFile(blobLike)), "file", "type");
  assert.equal(sent.length, before);
  // A real Blob whose own getters throw: read under catch, refused naming the field.
  const boom = () => {
    throw new Error("own getter");
  };
  const blob = Object.defineProperties(new Blob([wav], { type: "audio/wav" }), { size: { get: boom }, type: { get: boom } });
  for (const method of ["stream", "base64"]) {
    assertRefused(await rejection(c.uploadFile(blob, { fileName: "own-getters.wav", method })), "file", "type");
  }
  assert.equal(sent.length, before);
});

test("a deduper read again from inside a getter of the event it is reading keeps counting", { skip }, async () => {
  const deduper = new pkg.CallbackDeduper();
  const body = { code: 200, msg: "ok", data: { callbackType: "complete", task_id: "t-1", data: [] } };
  const event = { ...body };
  Object.defineProperty(event, "code", {
    get() {
      // Was "recursive use of an object": `isNew` held the deduper mutably while reading the event.
      deduper.isNew({ ...body, data: { ...body.data, task_id: "t-2" } });
      return 200;
    },
    enumerable: true,
  });
  assert.equal(deduper.isNew(event), true);
  assert.equal(deduper.size, 2);
  assert.equal(deduper.isNew(body), false);
});

test("a method called on another value, or on a freed client: a TunesmithError, not a null pointer", { skip }, async () => {
  const { c } = client();
  const error = await rejection(pkg.Client.prototype.getCredits.call({ __wbg_ptr: 1 }));
  assert.ok(error instanceof pkg.TunesmithError && error.kind === "configuration", error.message);
  const freed = client().c;
  freed.free();
  assert.equal((await rejection(freed.getCredits())).kind, "configuration");
  assert.throws(() => freed.watchTask("t"), (e) => e instanceof pkg.TunesmithError);
  assert.ok(Number.isFinite((await c.getCredits()).credits));
});

test("an apiKey function's Promise whose `constructor` throws: a typed rejection, nothing thrown past the module", { skip }, async () => {
  const sent = [];
  const fetch = (url, init) => (sent.push(url), globalThis.fetch(url, init));
  const hostile = () => {
    const p = Promise.resolve(KEY);
    Object.defineProperty(p, "constructor", { get() { throw new Error("constructor getter"); } });
    return p;
  };
  const c = new pkg.Client({ apiKey: hostile, baseUrl: MUSIC, fetch, maxRetries: 0 });
  const error = await rejection(c.getCredits());
  assert.ok(error instanceof pkg.TunesmithError && error.kind === "configuration", `${error?.name}: ${error?.message}`);
  assert.equal(error.cause?.message, "constructor getter");
  assert.equal(sent.length, 0, "nothing sent without a key");
  // The module still runs.
  const ok = new pkg.Client({ apiKey: async () => KEY, baseUrl: MUSIC, maxRetries: 0 });
  assert.ok(Number.isFinite((await ok.getCredits()).credits));
});

test("validateRequest (the companion's check) takes any value as the operation's name", { skip }, async () => {
  const { validateRequest } = await import(pathToFileURL(join(PKG, "tunesmith.js")).href);
  for (const name of [hugeArray(), { toString: () => { throw new Error("toString"); } }, Symbol("op"), 5]) {
    assert.throws(() => validateRequest(name, { taskId: "t" }), (e) => e instanceof pkg.ValidationError && e.field === "operation");
  }
  assert.throws(() => validateRequest("getTask", { taskId: hugeArray() }), (e) => e instanceof pkg.ValidationError && e.field === "taskId");
  assert.equal(validateRequest("getTask", { taskId: "t" }), undefined);
});

test("empty baseUrl and uploadUrl (an environment variable set to nothing) count as not set", { skip }, async () => {
  const urls = [];
  const fetch = async (url) => {
    urls.push(url);
    return new Response(JSON.stringify({ code: 200, msg: "success", data: { credits: 5, downloadUrl: "https://x/y", fileName: "y" } }), { status: 200 });
  };
  const c = new pkg.Client({ apiKey: KEY, baseUrl: "", uploadUrl: " ", fetch });
  await c.getCredits();
  await c.uploadFromUrl("https://example.com/a.mp3");
  assert.deepEqual(urls, ["https://api.sunoapi.org/api/v1/generate/credit", "https://sunoapiorg.redpandaai.co/api/file-url-upload"]);
  // Not a string is still an error; so is a URL that is not absolute.
  assert.throws(() => new pkg.Client({ apiKey: KEY, baseUrl: null }), (e) => e.field === "baseUrl");
  assert.throws(() => new pkg.Client({ apiKey: KEY, baseUrl: "localhost:8787" }), (e) => e.field === "baseUrl" && e.rule === "url");
  // The same for the companion's URL: empty is not set (and then `apiKey` is allowed).
  assert.equal(new pkg.Client({ apiKey: KEY, companionUrl: "", baseUrl: MUSIC }) instanceof pkg.Client, true);
});

test("after a panic every pending Promise rejects, and every later call fails at once: TunesmithError kind internal", { skip }, async () => {
  // In a worker (its own instance of the module): what the panic hook calls, `panicked`, ends it.
  // `panicked` of src/js/imports.js, which the glue bundles and re-exports for this test.
  const settle = pathToFileURL(join(PKG, "tunesmith.js")).href;
  const script = `
    const { workerData, parentPort } = require("node:worker_threads");
    (async () => {
      const pkg = await import(workerData.node);
      const { panicked } = await import(workerData.settle);
      const never = () => new Promise(() => {});
      const c = new pkg.Client({ apiKey: "k", baseUrl: "http://127.0.0.1:1", fetch: never });
      const inFlight = [c.getCredits(), c.waitForTask("t", { minIntervalMs: 10 }), c.uploadBase64("AAAA")];
      await new Promise((r) => setTimeout(r, 50));
      panicked("a test panic", "src/lib.rs");
      const outcome = (p) => p.then(() => "resolved", (e) => e instanceof pkg.TunesmithError ? e.kind : String(e));
      const thrown = (f) => { try { f(); return "returned"; } catch (e) { return e instanceof pkg.TunesmithError ? e.kind : String(e); } };
      parentPort.postMessage({
        inFlight: await Promise.all(inFlight.map(outcome)),
        later: [await outcome(c.getCredits()), thrown(() => new pkg.Client({})), thrown(() => pkg.parseCallback("{}")), thrown(() => c.watchTask("t"))],
      });
    })();
  `;
  const worker = new Worker(script, { eval: true, workerData: { node: pathToFileURL(join(PKG, "node.js")).href, settle } });
  const [result] = await Promise.race([
    new Promise((res) => worker.once("message", (m) => res([m]))),
    new Promise((_, rej) => setTimeout(() => rej(new Error("no answer from the worker in 10 s")), 10_000)),
  ]);
  await worker.terminate();
  assert.deepEqual(result, { inFlight: ["internal", "internal", "internal"], later: ["internal", "internal", "internal", "internal"] });
});

test("a real trap (out of memory) rejects every pending Promise, the trapping call and every later one: TunesmithError kind internal", { skip }, async () => {
  // The shipped module panics by trapping (panic=immediate-abort), and runs out of memory by
  // trapping: no hook runs, only the glue's guardExports sees it. In a Node capped at 16 MiB of
  // wasm memory, the 15 MiB of a callback body's bytes (parseCallback takes up to 16 MiB) cannot be
  // copied in. Without the guard the calls in flight stay pending for ever, the trapping call
  // throws a bare RuntimeError, and later calls enter the broken module.
  const script = `
    const pkg = await import(process.env.NODE_ENTRY);
    const never = () => new Promise(() => {});
    const c = new pkg.Client({ apiKey: "k", baseUrl: "http://127.0.0.1:1", fetch: never });
    const inFlight = [c.getCredits(), c.waitForTask("t", { minIntervalMs: 10 }), c.uploadBase64("AAAA")];
    await new Promise((r) => setTimeout(r, 50));
    const kind = (e) => (e instanceof pkg.TunesmithError ? e.kind + (e.message.includes("RuntimeError") ? " (trap)" : "") : String(e));
    const outcome = (p) => Promise.race([p.then(() => "resolved", kind), new Promise((r) => setTimeout(() => r("pending"), 2000))]);
    const thrown = (f) => { try { f(); return "returned"; } catch (e) { return kind(e); } };
    const trapping = thrown(() => pkg.parseCallback(new Uint8Array(15 << 20)));
    console.log(JSON.stringify({
      trapping,
      inFlight: await Promise.all(inFlight.map(outcome)),
      later: [await outcome(c.getCredits()), thrown(() => new pkg.Client({})), thrown(() => pkg.parseCallback("{}")), thrown(() => c.watchTask("t"))],
    }));
    // No process.exit: the requests and sleeps in flight at the trap were ended with it, so no
    // timer is left to keep the process alive (execFile's timeout would fail the test).
  `;
  const out = await new Promise((res, rej) =>
    execFile(process.execPath, ["--wasm-max-mem-pages=256", "--input-type=module", "-e", script], {
      env: { ...process.env, NODE_ENTRY: pathToFileURL(join(PKG, "node.js")).href },
      timeout: 30_000,
    }, (error, stdout, stderr) => (error ? rej(new Error(`${error.message}\n${stderr}`)) : res(stdout))),
  );
  assert.deepEqual(JSON.parse(out.trim().split("\n").at(-1)), {
    trapping: "internal (trap)",
    inFlight: ["internal (trap)", "internal (trap)", "internal (trap)"],
    later: ["internal (trap)", "internal (trap)", "internal (trap)", "internal (trap)"],
  });
});

test("a trap while an answer is read (in a future woken by a Promise): every pending Promise rejects, nothing is left uncaught", { skip }, async () => {
  // The trap happens inside the module's `wake`, called from a Promise's reaction rather than from
  // a caller: nobody can catch what it throws. The guard has already reported it (panicked) and
  // rejected every pending Promise; nothing more must surface as an unhandled rejection (which
  // ends a Node process) or an uncaught exception. A 15 MiB `msg`, copied into 16 MiB of wasm
  // memory, runs out of it.
  const script = `
    const pkg = await import(process.env.NODE_ENTRY);
    const surfaced = [];
    process.on("unhandledRejection", (e) => surfaced.push("unhandledRejection: " + e?.message));
    process.on("uncaughtException", (e) => surfaced.push("uncaughtException: " + e?.message));
    const never = () => new Promise(() => {});
    const huge = async () => new Response(JSON.stringify({ code: 500, msg: "x".repeat(15 << 20), data: null }), { status: 200 });
    const waiting = new pkg.Client({ apiKey: "k", baseUrl: "http://127.0.0.1:1", fetch: never });
    const inFlight = [waiting.getCredits(), waiting.waitForTask("t", { minIntervalMs: 10 })];
    const trapping = new pkg.Client({ apiKey: "k", baseUrl: "http://127.0.0.1:1", fetch: huge, maxRetries: 0 }).getCredits();
    const kind = (e) => (e instanceof pkg.TunesmithError ? e.kind + (e.message.includes("RuntimeError") ? " (trap)" : "") : String(e));
    const outcome = (p) => Promise.race([p.then(() => "resolved", kind), new Promise((r) => setTimeout(() => r("pending"), 5000))]);
    const result = { trapping: await outcome(trapping), inFlight: await Promise.all(inFlight.map(outcome)), later: await outcome(waiting.getCredits()) };
    await new Promise((r) => setTimeout(r, 100));
    console.log(JSON.stringify({ ...result, surfaced }));
    process.exit(0);
  `;
  const out = await new Promise((res, rej) =>
    execFile(process.execPath, ["--wasm-max-mem-pages=256", "--input-type=module", "-e", script], {
      env: { ...process.env, NODE_ENTRY: pathToFileURL(join(PKG, "node.js")).href },
      timeout: 30_000,
      maxBuffer: 1 << 20,
    }, (error, stdout, stderr) => (error ? rej(new Error(`${error.message}\n${stderr.slice(0, 2000)}`)) : res(stdout))),
  );
  assert.deepEqual(JSON.parse(out.trim().split("\n").at(-1)), {
    trapping: "internal (trap)",
    inFlight: ["internal (trap)", "internal (trap)"],
    later: "internal (trap)",
    surfaced: [],
  });
});
