// The companion server (tunesmith/server) over real HTTP, in front of the emulator of
// `cargo xtask test`: every rule it promises, one test each.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import {
  GENERATE, KEY, MUSIC, call, collectEvents, emulatorRequests, recordFromService, seen, session, skip,
  sleep, startCompanion,
} from "./companion/harness.mjs";

let companion;
before(async () => {
  if (skip) return;
  companion = await startCompanion({ origins: ["https://app.example"] });
});
after(async () => companion?.close());

async function credits() {
  const r = await fetch(`${MUSIC}/api/v1/generate/credit`, { headers: { authorization: `Bearer ${KEY}` } });
  return (await r.json()).data;
}

/** A generate through the companion as `user`; resolves with the task id. */
async function create(c, user, body = GENERATE) {
  const r = await call(c, "/music/api/v1/generate", { user, method: "POST", body });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.code, 200, r.text);
  return r.body.data.taskId;
}

const untilFinal = (events) => events.some((e) => e.data.state === "succeeded" || e.data.state === "failed");

test("an allowed operation is forwarded with the key added", { skip }, async () => {
  const r = await call(companion, "/music/api/v1/generate/credit", { user: "alice" });
  assert.equal(r.status, 200);
  assert.equal(typeof r.body.data, "number");
});

test("no open proxy: other paths, hosts and methods are refused", { skip }, async () => {
  for (const [path, method] of [
    ["/music/_emulator/stats", "GET"],
    ["/music/inbox/x", "POST"],
    ["/music/api/v1/generate", "GET"],
    ["/upload/api/v1/generate", "POST"],
    ["/music/api/file-url-upload", "POST"],
    ["/elsewhere/api/v1/generate/credit", "GET"],
    ["/music//evil.example/api/v1/generate/credit", "GET"],
  ]) {
    const r = await call(companion, path, { user: "alice", method, body: method === "POST" ? {} : undefined });
    assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
    assert.equal(r.body.error, "not_found");
  }
  const outside = await fetch(companion.url.replace(/\/ts$/, "/api/v1/generate/credit"));
  assert.equal(outside.status, 404);
  // Raw paths, as fetch would normalize them: `..` cannot climb out to the emulator's admin routes.
  const { port } = new URL(companion.url);
  for (const path of ["/ts/music/../../_emulator/stats", "/ts/music/api/../../music/../_emulator/stats", "/ts/music/%2e%2e/%2e%2e/_emulator/stats"]) {
    const status = await new Promise((resolve, reject) => {
      request({ host: "127.0.0.1", port, path, headers: session("alice") }, (res) => {
        res.resume();
        resolve(res.statusCode);
      }).on("error", reject).end();
    });
    assert.equal(status, 404, path);
  }
});

test("operations outside `allow` are refused with 403", { skip }, async () => {
  const narrow = await startCompanion({ allow: ["getTask", "generateLyrics"] });
  try {
    const r = await call(narrow, "/music/api/v1/generate/credit", { user: "alice" });
    assert.equal(r.status, 403);
    assert.equal(r.body.error, "operation_not_allowed");
    assert.match(r.body.msg, /getCredits is not allowed/);
  } finally {
    await narrow.close();
  }
});

test("authorize: no session is a 401, a refused user a 403, each with a clear body", { skip }, async () => {
  const anonymous = await call(companion, "/music/api/v1/generate/credit");
  assert.equal(anonymous.status, 401);
  assert.deepEqual(Object.keys(anonymous.body).sort(), ["code", "error", "msg"]);
  assert.match(anonymous.body.msg, /sign in/);
  const banned = await call(companion, "/music/api/v1/generate/credit", { user: "banned" });
  assert.equal(banned.status, 403);
  assert.equal(banned.body.msg, "this account is suspended");
  const events = await fetch(`${companion.url}/events`);
  assert.equal(events.status, 401);
});

test("a request that breaks the package's rules is refused before it costs a credit", { skip }, async () => {
  const before = await credits();
  const tag = `validation-${Date.now()}`;
  for (const body of [
    { ...GENERATE, model: 42 }, // a model name is an open list, but a string
    { prompt: "no mode" },
    { ...GENERATE, callbackUrl: "https://typo.example" },
    "not json",
  ]) {
    const r = await call(companion, "/music/api/v1/generate", { user: "alice", method: "POST", body, headers: { "x-emulator-tag": tag } });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error, "validation");
    assert.ok(r.body.msg.length > 0);
  }
  assert.equal((await emulatorRequests(tag)).length, 0, "nothing reached the service");
  assert.equal(await credits(), before);
});

test("the page's callBackUrl is replaced: the service calls the companion, with a token the page never sees", { skip }, async () => {
  const taskId = await create(companion, "alice", { ...GENERATE, callBackUrl: "https://attacker.example/steal" });
  const param = JSON.parse((await recordFromService(taskId)).param);
  assert.match(param.callBackUrl, new RegExp(`^${companion.url}/callbacks/[A-Za-z0-9_-]{43}$`));
  const mine = await call(companion, `/music/api/v1/generate/record-info?taskId=${taskId}`, { user: "alice" });
  assert.equal(mine.status, 200);
  assert.ok(!mine.text.includes(param.callBackUrl), "the token stays out of the page's answers");
  assert.match(mine.text, /callbacks\/\[redacted\]/);
});

test("callbacks reach the creator's event stream once each, in order, with ids", { skip }, async () => {
  const stream = await collectEvents(companion, "carol", { until: untilFinal });
  assert.equal(stream.status, 200);
  const taskId = await create(companion, "carol");
  const events = await stream.done;
  assert.deepEqual(events.map((e) => e.data.stage), ["text", "first", "complete"]);
  assert.ok(events.every((e) => e.data.taskId === taskId));
  assert.deepEqual(events.map((e) => e.id), [...events.map((e) => e.id)].sort((a, b) => a - b));
  assert.equal(events.at(-1).data.tracks.length, 2);
});

test("a redelivered callback is answered 200 and not pushed again", { skip }, async () => {
  const taskId = await create(companion, "dave");
  const first = await collectEvents(companion, "dave", { task: taskId, until: untilFinal });
  await first.done;
  const { callBackUrl } = JSON.parse((await recordFromService(taskId)).param);
  const body = {
    code: 200,
    msg: "All generated successfully.",
    data: { callbackType: "complete", task_id: taskId, data: [] },
  };
  const again = await fetch(callBackUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(again.status, 200);
  assert.equal((await again.json()).msg, "already received");
  const replay = await collectEvents(companion, "dave", { task: taskId, timeoutMs: 1500 });
  const events = await replay.done;
  assert.equal(events.filter((e) => e.data.stage === "complete").length, 1);
});

test("forged callbacks are refused: unknown token, another task's body, malformed body", { skip }, async () => {
  const body = JSON.stringify({ code: 200, msg: "ok", data: { callbackType: "complete", task_id: "x", data: [] } });
  const post = (path, b = body) => fetch(companion.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: b });
  assert.equal((await post("/callbacks/" + "A".repeat(43))).status, 403);
  assert.equal((await post("/callbacks/short")).status, 403);
  assert.equal((await post("/callbacks/")).status, 403);
  const taskId = await create(companion, "erin");
  const { callBackUrl } = JSON.parse((await recordFromService(taskId)).param);
  const token = callBackUrl.slice(callBackUrl.lastIndexOf("/"));
  const other = await post("/callbacks" + token);
  assert.equal(other.status, 403, "a body naming another task");
  assert.equal((await post("/callbacks" + token, "{not json")).status, 400);
  const stranger = await collectEvents(companion, "erin", { timeoutMs: 1000 });
  assert.ok((await stranger.done).every((e) => e.data.taskId !== "x"));
});

test("a user never sees another user's tasks, records or events", { skip }, async () => {
  const bobStream = await collectEvents(companion, "bob", { timeoutMs: 4000 });
  const taskId = await create(companion, "alice");
  const record = await call(companion, `/music/api/v1/generate/record-info?taskId=${taskId}`, { user: "bob" });
  assert.equal(record.status, 404);
  assert.ok(!record.text.includes("audioUrl"));
  const guessed = await call(companion, `/music/api/v1/generate/record-info?taskId=0000000000000000`, { user: "bob" });
  assert.deepEqual(guessed.body, record.body, "a guess and another user's task read the same");
  const cover = await call(companion, "/music/api/v1/suno/cover/generate", { user: "bob", method: "POST", body: { taskId, callBackUrl: "https://x.example" } });
  assert.equal(cover.status, 404, "another user's task as an input");
  const events = await fetch(`${companion.url}/events?task=${taskId}`, { headers: session("bob") });
  assert.equal(events.status, 404);
  assert.ok((await bobStream.done).every((e) => e.data.taskId !== taskId));
  const alice = await call(companion, `/music/api/v1/generate/record-info?taskId=${taskId}`, { user: "alice" });
  assert.equal(alice.status, 200);
});

test("the newer operations' own spellings: task_id and sunoTaskId are checked for their owner, calBackUrl is set", { skip }, async () => {
  const taskId = await create(companion, "alice");
  for (let i = 0; i < 200; i++) {
    const r = await call(companion, `/music/api/v1/generate/record-info?taskId=${taskId}`, { user: "alice" });
    if (r.body?.data?.status === "SUCCESS") break;
    await sleep(50);
  }
  // Recovery names the old task `sunoTaskId`: bob cannot recover alice's song.
  const theft = await call(companion, "/music/api/v1/suno/recovery", { user: "bob", method: "POST", body: { sunoTaskId: taskId } });
  assert.equal(theft.status, 404, theft.text);
  assert.equal(theft.body.field, "sunoTaskId");
  const recovery = await call(companion, "/music/api/v1/suno/recovery", { user: "alice", method: "POST", body: { sunoTaskId: taskId } });
  assert.equal(recovery.body.code, 200, recovery.text);
  const recoveryId = recovery.body.data.taskId;
  // Its status query spells the id `task_id`: the owner reads it, another user reads a 404.
  const mine = await call(companion, `/music/api/v1/suno/recovery/record-info?task_id=${recoveryId}`, { user: "alice" });
  assert.equal(mine.status, 200, mine.text);
  assert.ok([200, 201].includes(mine.body.code), mine.text);
  const theirs = await call(companion, `/music/api/v1/suno/recovery/record-info?task_id=${recoveryId}`, { user: "bob" });
  assert.equal(theirs.status, 404, theirs.text);
  // Regenerate takes its callback as `calBackUrl`: the companion sets that field (validation would
  // refuse a `callBackUrl` as unknown), and only for the owner of the validation task.
  const regenerate = await call(companion, "/music/api/v1/voice/regenerate", { user: "bob", method: "POST", body: { taskId: recoveryId } });
  assert.equal(regenerate.status, 404, "another user's task, whatever its kind");
  const check = await call(companion, "/music/api/v1/voice/check-voice", { user: "bob", method: "POST", body: { task_id: recoveryId } });
  assert.equal(check.status, 404, check.text);
});

test("a page that reconnects with Last-Event-ID gets what it missed and nothing twice", { skip }, async () => {
  const taskId = await create(companion, "frank");
  const first = await collectEvents(companion, "frank", { task: taskId, until: (e) => e.length === 1 });
  const [one] = await first.done;
  assert.equal(one.data.stage, "text");
  const rest = await collectEvents(companion, "frank", { task: taskId, lastEventId: one.id, until: untilFinal });
  const events = await rest.done;
  assert.deepEqual(events.map((e) => e.data.stage), ["first", "complete"]);
});

test("limits: requests per window, tasks in flight: 429 with Retry-After and a clear body", { skip }, async () => {
  const limited = await startCompanion({ limits: { requestsPerWindow: 3, windowMs: 60_000 } });
  try {
    for (let i = 0; i < 3; i++) assert.equal((await call(limited, "/music/api/v1/generate/credit", { user: "gina" })).status, 200);
    const over = await call(limited, "/music/api/v1/generate/credit", { user: "gina" });
    assert.equal(over.status, 429);
    assert.equal(over.body.error, "rate_limited");
    assert.match(over.body.msg, /at most 3 requests per 60 s/);
    const retry = Number(over.headers.get("retry-after"));
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    assert.equal((await call(limited, "/music/api/v1/generate/credit", { user: "hank" })).status, 200, "per user");
  } finally {
    await limited.close();
  }
  const one = await startCompanion({ limits: { tasksInFlight: 1 } });
  try {
    const stream = await collectEvents(one, "ivan", { until: untilFinal });
    await create(one, "ivan");
    const busy = await call(one, "/music/api/v1/generate", { user: "ivan", method: "POST", body: GENERATE });
    assert.equal(busy.status, 429);
    assert.equal(busy.body.error, "too_many_tasks");
    assert.ok(Number(busy.headers.get("retry-after")) >= 1);
    await stream.done;
    await create(one, "ivan"); // the final callback freed the slot
  } finally {
    await one.close();
  }
});

test("CORS: configured origins only", { skip }, async () => {
  const pre = (origin) =>
    fetch(`${companion.url}/music/api/v1/generate`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type, x-session" },
    });
  const ok = await pre("https://app.example");
  assert.equal(ok.status, 204);
  assert.equal(ok.headers.get("access-control-allow-origin"), "https://app.example");
  assert.match(ok.headers.get("access-control-allow-headers"), /x-session/);
  const evil = await pre("https://evil.example");
  assert.equal(evil.status, 403);
  assert.equal(evil.headers.get("access-control-allow-origin"), null);
  const simple = await call(companion, "/music/api/v1/generate/credit", { user: "alice", headers: { origin: "https://evil.example" } });
  assert.equal(simple.status, 403, "a simple request from another origin does nothing");
  const allowed = await call(companion, "/music/api/v1/generate/credit", { user: "alice", headers: { origin: "https://app.example" } });
  assert.equal(allowed.headers.get("access-control-allow-origin"), "https://app.example");
});

test("uploads: a stream upload passes through; past the size limit it is refused with 413", { skip }, async () => {
  const small = await startCompanion({ limits: { uploadBytes: 1000 } });
  try {
    const form = () => {
      const f = new FormData();
      f.append("uploadPath", "companion");
      f.append("file", new Blob([new Uint8Array(2000)], { type: "audio/wav" }), "a.wav");
      return f;
    };
    const big = await fetch(`${small.url}/upload/api/file-stream-upload`, { method: "POST", headers: session("jane"), body: form() });
    assert.equal(big.status, 413);
    assert.equal((await big.json()).error, "upload_too_large");
    const f = new FormData();
    f.append("uploadPath", "companion");
    f.append("file", new Blob([new Uint8Array(500)], { type: "audio/wav" }), "a.wav");
    const fits = await fetch(`${small.url}/upload/api/file-stream-upload`, { method: "POST", headers: session("jane"), body: f });
    const answer = await fits.json();
    assert.equal(fits.status, 200, JSON.stringify(answer));
    assert.match(answer.data.downloadUrl, /^http/);
  } finally {
    await small.close();
  }
});

test("an unreachable service is a 502 that names no secret", { skip }, async () => {
  const lost = await startCompanion({ baseUrl: "http://127.0.0.1:9" });
  try {
    const r = await call(lost, "/music/api/v1/generate/credit", { user: "kim" });
    assert.equal(r.status, 502);
    assert.equal(r.body.error, "service_unreachable");
    assert.ok(lost.logs.length > 0);
  } finally {
    await lost.close();
  }
});

test("options: a bad option fails at start, naming it and never quoting the key", { skip }, async () => {
  const { createCompanion } = await import("./companion/harness.mjs").then((h) => h.server);
  const base = { apiKey: KEY, publicUrl: "http://127.0.0.1/ts", authorize: () => "u" };
  assert.throws(() => createCompanion({ ...base, apiKey: "" }), /apiKey/);
  assert.throws(() => createCompanion({ ...base, allow: ["getCredits", "deleteEverything"] }), /deleteEverything/);
  assert.throws(() => createCompanion({ ...base, publicUrl: undefined }), /publicUrl/);
  assert.throws(() => createCompanion({ ...base, authorize: undefined }), /authorize/);
  assert.throws(() => createCompanion({ ...base, limits: { tasksInFlight: -1 } }), /tasksInFlight/);
  try {
    createCompanion({ ...base, baseUrl: KEY });
  } catch (e) {
    assert.ok(!e.message.includes(KEY));
  }
});

// Last: every answer (headers and bodies) and log line of every test above.
test("the key appears in no answer, header or log line of the companion", { skip }, async () => {
  assert.ok(seen.length > 50, `only ${seen.length} answers and log lines were kept`);
  const found = seen.filter((s) => s.includes(KEY));
  assert.deepEqual(found, []);
});
