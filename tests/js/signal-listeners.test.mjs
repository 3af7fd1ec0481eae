// A caller's AbortSignal often lives longer than one call (a page's, a server's shutdown signal): the
// package must leave no listener on it once a call, a waiter or a watch has ended, or each call
// would leave one behind (and, through it, the call's state). Node counts a target's listeners
// (`events.getEventListeners`).
//
// Where the runtime has `AbortSignal.any` (Node 20+, current browsers) the package listens on a
// signal of its own that follows the caller's, and the caller's gets no listener at all; so each
// test here also runs with `AbortSignal.any` removed, as in older runtimes, where the package
// listens on the caller's signal itself.
import { test } from "node:test";
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PKG = process.env.TUNESMITH_PKG ?? join(ROOT, "pkg");
const MUSIC = process.env.TUNESMITH_TEST_MUSIC_URL;
const KEY = process.env.TUNESMITH_TEST_API_KEY;
const skip = !MUSIC || !KEY ? "needs the emulator (run by cargo xtask test)" : false;
const pkg = skip ? {} : await import(pathToFileURL(join(PKG, "node.js")).href);

const client = () => new pkg.Client({ apiKey: KEY, baseUrl: MUSIC, maxRetries: 0 });
const listeners = (signal) => getEventListeners(signal, "abort").length;

/** Runs `body` with and without `AbortSignal.any`. */
async function bothRuntimes(t, body) {
  await t.test("with AbortSignal.any", body);
  await t.test("without AbortSignal.any (older runtimes)", async () => {
    const any = AbortSignal.any;
    delete AbortSignal.any;
    try {
      assert.equal(typeof AbortSignal.any, "undefined");
      await body();
    } finally {
      AbortSignal.any = any;
    }
  });
}

/** A music task of the emulator, created without the package. */
async function createdTask() {
  const response = await fetch(`${MUSIC}/api/v1/generate`, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ customMode: false, instrumental: true, model: "V5", prompt: "listeners", callBackUrl: "https://example.invalid/cb" }),
  });
  const { data } = await response.json();
  assert.ok(data?.taskId, "the emulator created a task");
  return data.taskId;
}

test("calls and waiters leave no listener on the caller's signal", { skip }, (t) =>
  bothRuntimes(t, async () => {
    const c = client();
    const { signal } = new AbortController();
    for (let i = 0; i < 3; i++) assert.equal(typeof (await c.getCredits(undefined, { signal })).credits, "number");
    const id = await createdTask();
    const record = await c.waitForTask(id, { signal, minIntervalMs: 50, maxIntervalMs: 100 });
    assert.equal(record.state, "succeeded");
    assert.equal(listeners(signal), 0);
  }),
);

test("watchTask leaves no listener on the caller's signal, however it ends", { skip }, (t) =>
  bothRuntimes(t, async () => {
    const c = client();
    const { signal } = new AbortController();
    // Closed before its first record, and closed by `break` after one.
    await c.watchTask("never-polled", { signal }).return();
    for await (const record of c.watchTask(await createdTask(), { signal, minIntervalMs: 50 })) {
      assert.ok(record.stage);
      break;
    }
    // Run to its last record.
    const stages = [];
    for await (const record of c.watchTask(await createdTask(), { signal, minIntervalMs: 50, maxIntervalMs: 100 })) stages.push(record.stage);
    assert.ok(stages.length > 0);
    // Ended by an error: a task the service does not know.
    await assert.rejects(c.watchTask("no-such-task", { signal }).next(), (e) => e instanceof pkg.TunesmithError);
    assert.equal(listeners(signal), 0);
  }),
);

test("a watch still stops when the caller's signal fires", { skip }, (t) =>
  bothRuntimes(t, async () => {
    const c = client();
    const controller = new AbortController();
    const watch = c.watchTask(await createdTask(), { signal: controller.signal, minIntervalMs: 5000, maxIntervalMs: 5000 });
    const first = await watch.next();
    assert.equal(first.done, false);
    const second = watch.next();
    controller.abort();
    await assert.rejects(second, (e) => e instanceof pkg.AbortError);
    assert.equal(listeners(controller.signal), 0);
  }),
);
