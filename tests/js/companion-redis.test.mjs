// Two companion instances on one real Redis server: an event received by one instance
// reaches a page connected to the other; owners, limits and the backlog are shared.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  GENERATE, call, collectEvents, redisClient, server, skip as noEmulator, startCompanion,
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
