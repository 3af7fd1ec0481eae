// Two companion instances on one real Redis server: an event received by one instance
// reaches a page connected to the other; owners, limits and the backlog are shared.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer } from "node:http";
import {
  GENERATE, call, collectEvents, pkg, redisClient, server, session, skip as noEmulator, slowEmulator, startCompanion,
} from "./companion/harness.mjs";

const REDIS = process.env.TUNESMITH_TEST_REDIS_URL;
const skip = noEmulator || (!REDIS ? "needs redis-server (started by cargo xtask test)" : false);

const clients = [];
async function redisCompanion(prefix, options = {}) {
  const client = await redisClient(REDIS);
  clients.push(client);
  return startCompanion({ store: server.redisStore({ client, prefix }), ...options });
}

let a;
let b;
const prefix = `companion-test-${process.pid}-${Date.now()}:`;
before(async () => {
  if (skip) return;
  a = await redisCompanion(prefix);
  b = await redisCompanion(prefix);
});
after(async () => {
  await a?.close();
  await b?.close();
  for (const c of clients) await c.quit().catch(() => {});
});

const untilFinal = (events) => events.some((e) => e.data.state === "succeeded" || e.data.state === "failed");

test("an event received by one instance reaches a page connected to the other", { skip }, async () => {
  const page = await collectEvents(b, "alice", { until: untilFinal });
  assert.equal(page.status, 200);
  // Created through A: the service calls A back (A's publicUrl is in the callBackUrl).
  const created = await call(a, "/music/api/v1/generate", { user: "alice", method: "POST", body: GENERATE });
  assert.equal(created.status, 200, created.text);
  const events = await page.done;
  assert.deepEqual(events.map((e) => e.data.stage), ["text", "first", "complete"]);
  assert.ok(events.every((e) => e.data.taskId === created.body.data.taskId));
});

test("ownership is shared: the other instance refuses another user's task and serves the owner's", { skip }, async () => {
  const created = await call(a, "/music/api/v1/generate", { user: "alice", method: "POST", body: GENERATE });
  const taskId = created.body.data.taskId;
  assert.equal((await call(b, `/music/api/v1/generate/record-info?taskId=${taskId}`, { user: "bob" })).status, 404);
  assert.equal((await call(b, `/music/api/v1/generate/record-info?taskId=${taskId}`, { user: "alice" })).status, 200);
});

test("a page reconnecting to the other instance with Last-Event-ID misses nothing", { skip }, async () => {
  const created = await call(a, "/music/api/v1/generate", { user: "carol", method: "POST", body: GENERATE });
  const taskId = created.body.data.taskId;
  const first = await collectEvents(a, "carol", { task: taskId, until: (e) => e.length === 1 });
  const [one] = await first.done;
  const rest = await collectEvents(b, "carol", { task: taskId, lastEventId: one.id, until: untilFinal });
  const stages = [one, ...(await rest.done)].map((e) => e.data.stage);
  assert.deepEqual(stages, ["text", "first", "complete"]);
});

test("a page on the other instance, its first read answered past a stage, the first instance gone: every stage, in order", { skip, timeout: 60_000 }, async () => {
  // The task's callbacks reach X; the page waits on Y in push mode. Its first record read is
  // answered only once Y's stream has the task's `first` stage, after X is closed: the read comes
  // back past `text`, which the page must still get (from the backlog), then `first` and `complete`.
  const slow = await slowEmulator(1500);
  const p = `${prefix}gone:`;
  const options = { baseUrl: slow.music, uploadUrl: slow.upload };
  const x = await redisCompanion(p, options);
  let read = null;
  const http = createServer(
    server.toNodeListener(async (request) => {
      const url = new URL(request.url);
      if (!url.pathname.endsWith("/record-info") || read) return y.handler(request);
      read = {};
      const pushed = await collectEvents(y, "erin", { task: url.searchParams.get("taskId"), until: (e) => e.some((x) => x.data.stage === "first") });
      await pushed.done;
      await x.close();
      const answer = await y.handler(request);
      read.status = (await answer.clone().json()).data?.status;
      return answer;
    }),
  );
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  const host = `127.0.0.1:${http.address().port}`;
  const y = await redisCompanion(p, { ...options, allowedHosts: [host] });
  try {
    const created = await call(x, "/music/api/v1/generate", { user: "erin", method: "POST", body: GENERATE });
    assert.equal(created.status, 200, created.text);
    const page = new pkg.Client({ companionUrl: `http://${host}/ts`, headers: session("erin") });
    const stages = [];
    // X is gone before `complete` is called back: a second without events, and Y's page looks.
    const task = await page.waitForTask(created.body.data.taskId, { onProgress: (t) => stages.push(t.stage), maxIntervalMs: 1000 });
    assert.equal(read?.status, "FIRST_SUCCESS", "the first read came back at the first stage");
    assert.equal(task.state, "succeeded");
    assert.deepEqual(stages, ["text", "first", "complete"]);
  } finally {
    http.closeAllConnections();
    await new Promise((r) => http.close(r));
    await x.close().catch(() => {});
    await y.close();
    await slow.close();
  }
});

test("the request window is counted across instances", { skip }, async () => {
  const p = `${prefix}limits:`;
  const x = await redisCompanion(p, { limits: { requestsPerWindow: 2 } });
  const y = await redisCompanion(p, { limits: { requestsPerWindow: 2 } });
  try {
    assert.equal((await call(x, "/music/api/v1/generate/credit", { user: "dan" })).status, 200);
    assert.equal((await call(y, "/music/api/v1/generate/credit", { user: "dan" })).status, 200);
    const over = await call(x, "/music/api/v1/generate/credit", { user: "dan" });
    assert.equal(over.status, 429);
    assert.ok(Number(over.headers.get("retry-after")) >= 1);
  } finally {
    await x.close();
    await y.close();
  }
});
