// Limits that hold under concurrency: tasks in flight taken atomically (memory and Redis), requests
// in flight capped per user and overall, and JSON bodies capped small except a Base64 upload's.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { GENERATE, call, freePort, redisClient, server, session, skip, sleep, startCompanion } from "./companion/harness.mjs";

const REDIS = process.env.TUNESMITH_TEST_REDIS_URL;
const clients = [];
after(async () => {
  for (const c of clients) await c.quit().catch(() => {});
});

for (const kind of ["memory", "redis"]) {
  test(`tasksInFlight holds under 50 concurrent creates (${kind} store)`, { skip: skip || (kind === "redis" && !REDIS && "needs redis-server") }, async () => {
    let store;
    if (kind === "redis") {
      const client = await redisClient(REDIS);
      clients.push(client);
      store = server.redisStore({ client, prefix: `inflight-${process.pid}-${Date.now()}:` });
    }
    // Callbacks go to a closed port, so no task ends (and frees its slot) during the burst, however
    // slowly a loaded machine sends it: more than 3 created is the race, not a task that ended.
    const publicUrl = `http://127.0.0.1:${await freePort()}/ts`;
    const c = await startCompanion({ store, publicUrl, limits: { tasksInFlight: 3, requestsInFlight: 100 } });
    try {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => call(c, "/music/api/v1/generate", { user: "hal", method: "POST", body: GENERATE })),
      );
      const created = answers.filter((a) => a.body?.code === 200).length;
      const refused = answers.filter((a) => a.status === 429 && a.body.error === "too_many_tasks").length;
      assert.equal(created, 3, answers.map((a) => a.status).join(" "));
      assert.equal(refused, 47);
    } finally {
      await c.close();
    }
  });
}

/** A POST whose body never ends (until `abort`): a request that stays in flight. */
function hanging(c, user, abort) {
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"prompt":'));
    },
  });
  return fetch(`${c.url}/music/api/v1/generate`, {
    method: "POST",
    headers: { ...session(user), "content-type": "application/json" },
    body,
    duplex: "half",
    signal: abort.signal,
  }).catch(() => null);
}

/** Gives the requests just sent the time to reach the companion (they stay in flight after it). */
const settle = () => sleep(300);

test("requests in flight are capped per user (429) and overall (503)", { skip }, async () => {
  const c = await startCompanion({ limits: { requestsInFlight: 2, totalRequestsInFlight: 3 } });
  const abort = new AbortController();
  try {
    hanging(c, "ida", abort);
    hanging(c, "ida", abort);
    await settle();
    const mine = await call(c, "/music/api/v1/generate", { user: "ida", method: "POST", body: GENERATE });
    assert.equal(mine.status, 429, mine.text);
    assert.equal(mine.body.error, "too_many_requests");
    assert.equal(mine.body.limit, "requestsInFlight");
    assert.ok(Number(mine.headers.get("retry-after")) >= 1);
    hanging(c, "jon", abort);
    await settle();
    const anyone = await call(c, "/music/api/v1/generate", { user: "kay", method: "POST", body: GENERATE });
    assert.equal(anyone.status, 503, anyone.text);
    assert.equal(anyone.body.error, "busy");
    assert.equal(anyone.body.limit, "totalRequestsInFlight");
    assert.ok(Number(anyone.headers.get("retry-after")) >= 1);
    abort.abort();
    // Their places are given back when they end.
    let after;
    for (let i = 0; i < 100; i++) {
      after = await call(c, "/music/api/v1/generate", { user: "ida", method: "POST", body: GENERATE });
      if (after.status !== 429 && after.status !== 503) break;
      await sleep(20);
    }
    assert.equal(after.body.code, 200, after.text);
  } finally {
    abort.abort();
    await c.close();
  }
});

test("a JSON body is capped small on every operation but uploadBase64", { skip }, async () => {
  const c = await startCompanion();
  try {
    const big = { ...GENERATE, prompt: "x".repeat(100_000) };
    const r = await call(c, "/music/api/v1/generate", { user: "lou", method: "POST", body: big });
    assert.equal(r.status, 413, r.text);
    assert.equal(r.body.error, "too_large");
    assert.match(r.body.msg, /64 KiB/);
    // A Base64 upload of 1 MiB passes.
    const data = Buffer.alloc(1024 * 1024, 7).toString("base64");
    const upload = await call(c, "/upload/api/file-base64-upload", {
      user: "lou",
      method: "POST",
      body: { base64Data: data, uploadPath: "companion", fileName: "a.bin" },
    });
    assert.equal(upload.status, 200, upload.text.slice(0, 300));
    assert.equal(upload.body.data.fileSize, 1024 * 1024);
  } finally {
    await c.close();
  }
});

test("JSON bodies held at once are capped in bytes, all users together: past the budget, a 503", { skip }, async () => {
  const c = await startCompanion({ limits: { bodyBytesInFlight: 1024 * 1024 } });
  const abort = new AbortController();
  try {
    // 600 KiB of one upload's JSON arrived, its end not yet.
    const head = new TextEncoder().encode(`{"uploadPath":"companion","base64Data":"${"A".repeat(600 * 1024)}`);
    fetch(`${c.url}/upload/api/file-base64-upload`, {
      method: "POST",
      headers: { ...session("max"), "content-type": "application/json" },
      body: new ReadableStream({ start: (controller) => controller.enqueue(head) }),
      duplex: "half",
      signal: abort.signal,
    }).catch(() => null);
    await settle();
    const data = Buffer.alloc(450 * 1024, 7).toString("base64");
    const r = await call(c, "/upload/api/file-base64-upload", { user: "ned", method: "POST", body: { base64Data: data, uploadPath: "companion" } });
    assert.equal(r.status, 503, r.text.slice(0, 300));
    assert.equal(r.body.error, "busy");
    assert.equal(r.body.limit, "bodyBytesInFlight");
    abort.abort();
    let after;
    for (let i = 0; i < 100; i++) {
      after = await call(c, "/upload/api/file-base64-upload", { user: "ned", method: "POST", body: { base64Data: data, uploadPath: "companion" } });
      if (after.status !== 503) break;
      await sleep(20);
    }
    assert.equal(after.status, 200, "the budget is given back");
  } finally {
    abort.abort();
    await c.close();
  }
});
