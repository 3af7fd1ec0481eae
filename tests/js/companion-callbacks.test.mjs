// A callback token is the only secret between the companion and the service: it dies with its
// task, never claims a task it was not made for, and never reaches a log line.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  GENERATE, KEY, MUSIC, call, collectEvents, create, cutOff, observe, recordFromService, redisClient, server, skip, sleep,
  startCompanion, untilFinal,
} from "./companion/harness.mjs";

const REDIS = process.env.TUNESMITH_TEST_REDIS_URL;

let companion;
before(async () => {
  if (skip) return;
  companion = await startCompanion();
});
after(async () => companion?.close());

/** A task of the same account that this companion never saw. */
async function taskMadeElsewhere() {
  const r = await fetch(`${MUSIC}/api/v1/generate`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ ...GENERATE, callBackUrl: "https://example.invalid/cb" }),
  });
  return (await r.json()).data.taskId;
}

const post = (url, body) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });

/** The final `complete` callback body of a music task, as the service sends it. */
const complete = (taskId) => ({ code: 200, msg: "All generated successfully.", data: { callbackType: "complete", task_id: taskId, data: [] } });
const failure = (taskId) => ({ code: 500, msg: "Generation failed", data: { callbackType: "error", task_id: taskId, data: null } });

test("after the final callback, its token is dead: a forged error is refused, a redelivery is 200 and not pushed", { skip }, async () => {
  const stream = await collectEvents(companion, "alice", { until: untilFinal });
  const taskId = await create(companion, "alice");
  await stream.done;
  const { callBackUrl } = JSON.parse((await recordFromService(taskId)).param);
  const forged = await post(callBackUrl, failure(taskId));
  assert.equal(forged.status, 403, await forged.text());
  const again = await post(callBackUrl, complete(taskId));
  assert.equal(again.status, 200);
  assert.equal((await again.json()).msg, "already received");
  const replay = await collectEvents(companion, "alice", { task: taskId, timeoutMs: 1500 });
  const events = await replay.done;
  assert.deepEqual(events.map((e) => e.data.stage), ["text", "first", "complete"], "no error, nothing twice");
});

test("the token of a refused create dies with it, and never claims another task", { skip }, async () => {
  const watched = observe(server.memoryStore());
  const refusing = await startCompanion({ store: watched.store, forwardHeaders: ["x-emulate-code"] });
  try {
    const refused = await call(refusing, "/music/api/v1/generate", {
      user: "mallory",
      method: "POST",
      body: GENERATE,
      headers: { "x-emulate-code": "455" },
    });
    assert.equal(refused.body.code, 455, refused.text);
    const tokens = watched.calls.filter(([m, [key]]) => m === "set" && key.startsWith("token:")).map(([, [key]]) => key.slice(6));
    assert.ok(tokens.length <= 1, "one token at most, for the one create");
    // Whatever it was, the refused create's token answers nothing: not even for a task this
    // companion never saw (made with the same key elsewhere).
    const victim = await taskMadeElsewhere();
    for (const token of tokens) {
      const r = await post(`${refusing.url}/callbacks/${token}`, complete(victim));
      assert.equal(r.status, 403, await r.text());
    }
    const theirs = await call(refusing, `/music/api/v1/generate/record-info?taskId=${victim}`, { user: "mallory" });
    assert.equal(theirs.status, 404, "the token made mallory no owner");
  } finally {
    await refusing.close();
  }
});

test("a token answers only for the task it was made for", { skip }, async () => {
  const mine = await create(companion, "erin");
  const other = await create(companion, "frank");
  const { callBackUrl } = JSON.parse((await recordFromService(mine)).param);
  const r = await post(callBackUrl, complete(other));
  assert.equal(r.status, 403);
  assert.equal((await call(companion, `/music/api/v1/generate/record-info?taskId=${other}`, { user: "erin" })).status, 404);
});

test("no log line holds a callback token: not when the store is down, not when the body is cut", { skip: skip || (!REDIS && "needs redis-server") }, async () => {
  const client = await redisClient(REDIS);
  const c = await startCompanion({ store: server.redisStore({ client, prefix: `tokens-${process.pid}-${Date.now()}:` }) });
  try {
    const taskId = await create(c, "gina");
    const { callBackUrl } = JSON.parse((await recordFromService(taskId)).param);
    const token = callBackUrl.slice(callBackUrl.lastIndexOf("/") + 1);
    const path = new URL(callBackUrl).pathname;
    // A body cut off halfway: the socket closes before its end.
    await cutOff(c.url, `POST ${path} HTTP/1.1\r\nHost: ${new URL(c.url).host}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"code":200,`);
    // The store down: the client is gone.
    await client.quit();
    const down = await post(callBackUrl, complete(taskId));
    assert.ok(down.status >= 500, `the store is down: ${down.status}`);
    for (let i = 0; i < 50 && c.logs.length < 2; i++) await sleep(20);
    assert.ok(c.logs.length >= 1, "the failures were logged");
    assert.deepEqual(c.logs.filter((l) => l.includes(token)), [], "no log line names the token");
    assert.ok(c.logs.some((l) => l.includes("/callbacks/[redacted]")), c.logs.join("\n"));
  } finally {
    await c.close();
  }
});
