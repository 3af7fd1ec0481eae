// The page's side of the companion: `new Client({ companionUrl })` holds no key, and its
// waiters follow the task on the companion's event stream: each stage once, the final one always,
// one service query per task; polling through the companion when the stream is gone.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer } from "node:http";
import { GENERATE, KEY, collectEvents, emulatorRequests, pkg, server, session, skip, slowEmulator, startCompanion } from "./companion/harness.mjs";

let companion;
before(async () => {
  if (!skip) companion = await startCompanion();
});
after(async () => companion?.close());

const queriesOf = async (tag) => (await emulatorRequests(tag)).filter((r) => r.path.includes("record-info")).length;
const client = (user, tag, extra = {}) =>
  new pkg.Client({ companionUrl: companion.url, headers: { ...session(user), "x-emulator-tag": tag }, ...extra });

test("a create with wait: every stage pushed once, in order, and two service queries", { skip }, async () => {
  const tag = `push-wait-${Date.now()}`;
  const stages = [];
  const task = await client("paula", tag).generate(GENERATE, { wait: { onProgress: (t) => stages.push(t.stage) } });
  // The first state is reported when the first read sees it (as polling does); stages are 100 ms
  // apart here, so a loaded machine may read the task first at "text". The next test sees pending.
  assert.deepEqual(stages.filter((s) => s !== "pending"), ["text", "first", "complete"]);
  assert.ok(stages.indexOf("pending") <= 0, `pending, if reported, is first: ${stages}`);
  assert.equal(task.state, "succeeded");
  assert.equal(task.tracks.length, 2);
  assert.ok(task.tracks[0].audioUrl.startsWith("http"));
  // One record query at the start (the record each pushed stage is laid over), one at the end.
  assert.ok((await queriesOf(tag)) <= 2, `${await queriesOf(tag)} record queries`);
});

test("waitForTask and watchTask on the push stream", { skip }, async () => {
  // Stages a second apart, so that the first record read is the task's first state, on any machine.
  const slow = await slowEmulator();
  const own = await startCompanion({ baseUrl: slow.music, uploadUrl: slow.upload });
  try {
    const c = new pkg.Client({ companionUrl: own.url, headers: session("quinn") });
    const created = await c.generate(GENERATE);
    const seen = [];
    for await (const record of c.watchTask(created)) seen.push(record.stage);
    assert.deepEqual(seen, ["pending", "text", "first", "complete"]);
    const again = await c.waitForTask(created.taskId);
    assert.equal(again.state, "succeeded");
    const stages = [];
    await c.generate(GENERATE, { wait: { onProgress: (t) => stages.push(t.stage) } });
    assert.deepEqual(stages, ["pending", "text", "first", "complete"], "a create with wait reports pending first, as polling does");
  } finally {
    await own.close();
    await slow.close();
  }
});

test("a client with companionUrl refuses an apiKey", { skip }, () => {
  assert.throws(() => new pkg.Client({ companionUrl: companion.url, apiKey: KEY }), /companion adds the key/);
});

test("another user's task: the waiter rejects like a missing task, and reports nothing", { skip }, async () => {
  const created = await client("rita", "x").generate(GENERATE);
  const reported = [];
  await assert.rejects(
    client("sam", "y").waitForTask(created.taskId, { onProgress: (t) => reported.push(t), timeoutMs: 10_000 }),
    (e) => e.name === "ApiError" || e.name === "TunesmithError",
  );
  assert.deepEqual(reported, []);
});

test("the stream drops mid-task: the page reconnects and still gets every stage once", { skip }, async () => {
  // A companion whose HTTP server restarts (same store), as after a deploy.
  const store = server.memoryStore();
  // The task's stages 0.7 s apart (the emulator's X-Emulate-Stage-Delay-Ms, forwarded), so that
  // the first record read is its first state, on any machine.
  const first = await startCompanion({ store, forwardHeaders: ["x-emulator-tag", "x-emulate-stage-delay-ms"] });
  const port = new URL(first.url).port;
  const tag = `push-restart-${Date.now()}`;
  const headers = { ...session("tess"), "x-emulator-tag": tag, "x-emulate-stage-delay-ms": "700" };
  const c = new pkg.Client({ companionUrl: first.url, headers });
  const stages = [];
  let restarted;
  const done = c.generate(GENERATE, {
    wait: {
      onProgress: (t) => {
        stages.push(t.stage);
        if (t.stage === "text") {
          restarted = (async () => {
            first.http.closeAllConnections();
            await new Promise((r) => first.http.close(r));
            const again = createServer(server.toNodeListener(first.handler));
            again.listen(Number(port), "127.0.0.1");
            await once(again, "listening");
            return again;
          })();
        }
      },
    },
  });
  const task = await done;
  const again = await restarted;
  assert.deepEqual(stages, ["pending", "text", "first", "complete"]);
  assert.equal(task.state, "succeeded");
  again.closeAllConnections();
  await new Promise((r) => again.close(r));
  await store.close();
});

test("no stream at all: the waiter polls through the companion, each stage at most once, the final one always", { skip, timeout: 60_000 }, async () => {
  const store = server.memoryStore();
  // The same companion, with its event stream out of order (a proxy that buffers it, say).
  const alt = await front((request) =>
    new URL(request.url).pathname.endsWith("/events") ? new Response("down", { status: 503 }) : inner.handler(request),
  );
  const inner = await startCompanion({ store, allowedHosts: [alt.host] });
  try {
    // Pages reach the companion through `alt`; the service still calls back `inner` directly.
    const tag = `poll-${Date.now()}`;
    const c = new pkg.Client({ companionUrl: alt.url, headers: { ...session("uma"), "x-emulator-tag": tag } });
    const stages = [];
    const task = await c.generate(GENERATE, { wait: { onProgress: (t) => stages.push(t.stage), minIntervalMs: 200 } });
    assert.equal(task.state, "succeeded");
    assert.equal(stages.at(-1), "complete");
    assert.equal(new Set(stages).size, stages.length, `stages ${stages}`);
    assert.ok((await emulatorRequests(tag)).some((r) => r.path.includes("record-info")), "it polled");
  } finally {
    await alt.close();
    await inner.close();
    await store.close();
  }
});

/** A listener of its own in front of a companion (`handle`), which the companion allows as a Host. */
async function front(handle) {
  const http = createServer(server.toNodeListener((request) => handle(request)));
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  const host = `127.0.0.1:${http.address().port}`;
  return {
    host,
    url: `http://${host}/ts`,
    close: () => (http.closeAllConnections(), new Promise((r) => http.close(r))),
  };
}

test("a first record read that comes back past a stage pushed since, or at the end: every stage is still reported, in order", { skip, timeout: 60_000 }, async () => {
  // The page's first read is answered only once the task's `first` stage (then: its end) has been
  // pushed: it left before `text` and comes back past it (a slow or loaded companion), while the
  // stream replays every stage.
  const slow = await slowEmulator(1500);
  let until = null;
  const reads = [];
  const alt = await front(async (request) => {
    const url = new URL(request.url);
    if (!url.pathname.endsWith("/record-info") || until === null) return inner.handler(request);
    const stage = until;
    until = null;
    const pushed = await collectEvents(inner, request.headers.get("x-session").replace("-session", ""), {
      task: url.searchParams.get("taskId"),
      until: (e) => e.some((x) => x.data.stage === stage),
    });
    await pushed.done;
    const answer = await inner.handler(request);
    reads.push((await answer.clone().json()).data?.status);
    return answer;
  });
  const inner = await startCompanion({ baseUrl: slow.music, uploadUrl: slow.upload, allowedHosts: [alt.host] });
  try {
    for (const [user, stage] of [["vic", "first"], ["wes", "complete"]]) {
      const c = new pkg.Client({ companionUrl: alt.url, headers: session(user) });
      const created = await c.generate(GENERATE);
      const stages = [];
      until = stage;
      const task = await c.waitForTask(created, { onProgress: (t) => stages.push(t.stage) });
      assert.equal(task.state, "succeeded");
      assert.deepEqual(stages, ["text", "first", "complete"], `the first read held until ${stage}`);
    }
    assert.deepEqual(reads, ["FIRST_SUCCESS", "SUCCESS"], "the first reads came back at the first stage, then at the end");
  } finally {
    await alt.close();
    await inner.close();
    await slow.close();
  }
});
