// What the companion does not take on trust: a callback's word on which tracks are its user's (the
// service's record of the task decides), a Host header other than its own, and a callback token in
// any spelling a service or a log may write it; and the words of its refusals for a task that is
// not the caller's.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  GENERATE, KEY, MUSIC, call, create, freePort, raw, recordFromService, server, session, skip, sleep, startCompanion,
} from "./companion/harness.mjs";
import { hostileService } from "./companion/upstreams.mjs";

let companion;
let closed;
before(async () => {
  if (skip) return;
  // The service's callbacks go to a closed port: the only callbacks this companion gets are the
  // test's own, posted as a user holding his callback URL would.
  closed = await startCompanion({ publicUrl: `http://127.0.0.1:${await freePort()}/ts` });
  companion = await startCompanion();
});
after(async () => {
  await closed?.close();
  await companion?.close();
});

const post = (url, body) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });

/** A task's record from the service once it has succeeded (with the key: the companion reads nothing). */
async function finishedRecord(taskId) {
  for (let i = 0; i < 200; i++) {
    const record = await recordFromService(taskId);
    if (record?.status === "SUCCESS") return record;
    await sleep(50);
  }
  throw new Error(`task ${taskId} did not finish`);
}

/** A track of the same account made without this companion (another app, another instance). */
async function trackMadeElsewhere() {
  const r = await fetch(`${MUSIC}/api/v1/generate`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ ...GENERATE, callBackUrl: "https://example.invalid/cb" }),
  });
  const taskId = (await r.json()).data.taskId;
  return (await finishedRecord(taskId)).response.sunoData[0].id;
}

/** The `complete` callback of a music task naming `ids` as its tracks. */
const complete = (taskId, ids) => ({
  code: 200,
  msg: "All generated successfully.",
  data: {
    callbackType: "complete",
    task_id: taskId,
    data: ids.map((id) => ({ id, audio_url: `https://example.invalid/${id}.mp3`, title: "t", tags: "folk", duration: 30 })),
  },
});

const extend = (c, user, audioId) =>
  call(c, "/music/api/v1/generate/extend", { user, method: "POST", body: { defaultParamFlag: false, audioId, model: "V4_5" } });

test("a forged callback claims no track: Bob's extend of ids his task's record does not name stays 404", { skip, timeout: 60_000 }, async () => {
  // Alice's track, not yet read by Alice (her callbacks did not arrive); a track made elsewhere; an
  // id never made.
  const aliceTask = await create(closed, "alice");
  const aliceTrack = (await finishedRecord(aliceTask)).response.sunoData[0].id;
  const elsewhere = await trackMadeElsewhere();
  const neverMade = "0123456789abcdef0123456789abcdef";
  const foreign = [aliceTrack, elsewhere, neverMade];
  for (const id of foreign) assert.equal((await extend(closed, "bob", id)).status, 404, "not Bob's before");

  // Bob's own task, and his callback URL (which he learned: a leak, a log, a proxy).
  const bobTask = await create(closed, "bob");
  const { callBackUrl } = JSON.parse((await recordFromService(bobTask)).param);
  const token = callBackUrl.slice(callBackUrl.lastIndexOf("/") + 1);
  const forged = await post(`${closed.url}/callbacks/${token}`, complete(bobTask, foreign));
  assert.equal(forged.status, 200, await forged.text());

  for (const id of foreign) {
    const r = await extend(closed, "bob", id);
    assert.equal(r.status, 404, `${id}: ${r.text}`);
    assert.equal(r.body.error, "not_found");
    assert.equal(r.body.field, "audioId");
  }
  // Measurable: the companion says how many ids it did not take from the callback.
  assert.ok(closed.logs.some((l) => l.includes(`callback of task ${bobTask} named 3 id(s) its record does not`)), closed.logs.join("\n"));
  // Alice's track is still hers to extend once she reads her record.
  const aliceRecord = await call(closed, `/music/api/v1/generate/record-info?taskId=${aliceTask}`, { user: "alice" });
  assert.equal(aliceRecord.status, 200, aliceRecord.text);
  assert.equal((await extend(closed, "alice", aliceTrack)).body?.code, 200);
});

test("a callback's ids that the task's record names are its user's: Bob's own tracks extend", { skip, timeout: 60_000 }, async () => {
  const bobTask = await create(closed, "bob");
  const record = await finishedRecord(bobTask);
  const own = record.response.sunoData.map((t) => t.id);
  const { callBackUrl } = JSON.parse(record.param);
  const token = callBackUrl.slice(callBackUrl.lastIndexOf("/") + 1);
  assert.equal((await extend(closed, "bob", own[0])).status, 404, "not recorded before its callback");
  const delivered = await post(`${closed.url}/callbacks/${token}`, complete(bobTask, own));
  assert.equal(delivered.status, 200, await delivered.text());
  const r = await extend(closed, "bob", own[0]);
  assert.equal(r.body?.code, 200, r.text);
});

test("a callback whose task's record cannot be read is refused with a 503, to be delivered again", { skip, timeout: 60_000 }, async () => {
  // The service answers the create, then goes away: the record read fails.
  let up = true;
  let callBackUrl = null;
  const service = await hostileService(({ method, body }) => {
    if (method !== "POST" || !up) return { status: 502, headers: { "content-type": "text/plain" }, body: "down" };
    callBackUrl = JSON.parse(body).callBackUrl;
    return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ code: 200, msg: "success", data: { taskId: "t-503" } }) };
  });
  const c = await startCompanion({ baseUrl: service.url });
  try {
    const created = await call(c, "/music/api/v1/generate", { user: "bob", method: "POST", body: GENERATE });
    assert.equal(created.body?.data?.taskId, "t-503", created.text);
    up = false;
    const r = await post(callBackUrl, complete("t-503", ["0123456789abcdef0123456789abcdef"]));
    assert.equal(r.status, 503, await r.text());
    assert.equal(r.headers.get("retry-after"), "1");
    assert.equal((await extend(c, "bob", "0123456789abcdef0123456789abcdef")).status, 404);
  } finally {
    await c.close();
    await service.close();
  }
});

test("a callback token is cut out of answers and logs in every spelling: escaped, percent-encoded, twice, mixed", { skip }, async () => {
  const token = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde";
  const url = `http://127.0.0.1:9/ts/callbacks/${token}`;
  const spellings = [
    url,
    JSON.stringify(url).replace(/\//g, "\\/"), // JSON with escaped slashes
    JSON.stringify(JSON.stringify({ callBackUrl: url }).replace(/\//g, "\\/")), // JSON in JSON
    encodeURIComponent(url),
    encodeURIComponent(url).toLowerCase(),
    encodeURIComponent(encodeURIComponent(url)),
    `/ts\\/callbacks%2F${token}`,
    `/ts/callbacks%2f${token}`,
    `callbacks%252F${token}`,
    `/ts/callbacks\\u002F${token}`,
    `/ts/callbacks&#x2F;${token}`,
    `/ts/%63allbacks/${token}`,
  ];
  const service = await hostileService(() => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code: 200, msg: spellings.join(" "), data: null }),
  }));
  const c = await startCompanion({
    baseUrl: service.url,
    authorize: (request) => {
      if (request.headers.get("x-throw")) throw new Error(`no session in ${spellings.join(" ")}`);
      return request.headers.get("x-session")?.replace(/-session$/, "") ?? null;
    },
  });
  try {
    const r = await call(c, "/music/api/v1/generate/credit", { user: "alice" });
    assert.equal(r.status, 200);
    const thrown = await call(c, "/music/api/v1/generate/credit", { user: "alice", headers: { "x-throw": "1" } });
    assert.equal(thrown.status, 401);
    for (const [where, text] of [["answer", r.text], ["log", c.logs.join("\n")]]) {
      assert.equal(text.includes(token.slice(4, 30)), false, `${where}: ${text}`);
      assert.equal((text.match(/\[redacted\]/g) ?? []).length, spellings.length, `${where}: every spelling cut: ${text}`);
    }
    // What is kept is the path as it was spelled: the answer's JSON still parses.
    assert.match(r.body.msg, /callbacks%2F\[redacted\]/);
  } finally {
    await c.close();
    await service.close();
  }
});

test("another user's task and an unknown one are the same 404: error not_found, a msg that says so", { skip }, async () => {
  const alices = await create(companion, "alice");
  const unknown = "0123456789abcdef0123456789abcdef";
  for (const taskId of [alices, unknown]) {
    for (const [path, options] of [
      [`/music/api/v1/generate/record-info?taskId=${taskId}`, {}],
      ["/music/api/v1/wav/generate", { method: "POST", body: { taskId, audioId: "x" } }],
      [`/events?task=${taskId}`, {}],
    ]) {
      const r = await call(companion, path, { user: "bob", ...options });
      assert.equal(r.status, 404, `${path}: ${r.text}`);
      assert.equal(r.body.error, "not_found", path);
      assert.match(r.body.msg, /no task of yours/, path);
      assert.match(r.body.msg, /unknown|another user/, path);
    }
  }
});

/** A raw request line and Host header(s) to the companion; resolves with status and parsed body. */
async function rawTo(c, head) {
  const r = await raw(c.url, `${head}\r\nX-Session: alice-session\r\nConnection: close\r\n\r\n`);
  let body = null;
  try {
    body = JSON.parse(r.body);
  } catch {}
  return { ...r, json: body };
}

test("a Host other than publicUrl's (or allowedHosts') is refused with 421 before authorize", { skip }, async () => {
  const calls = [];
  const c = await startCompanion({
    allowedHosts: ["proxy.internal:8080"],
    authorize: (request) => (calls.push(request.headers.get("host")), request.headers.get("x-session")?.replace(/-session$/, "") ?? null),
  });
  const own = new URL(c.url).host;
  const port = new URL(c.url).port;
  try {
    const credit = "GET /ts/music/api/v1/generate/credit";
    const refused = {
      "another host": `${credit} HTTP/1.1\r\nHost: evil.example`,
      "another host on our port": `${credit} HTTP/1.1\r\nHost: evil.example:${port}`,
      "empty": `${credit} HTTP/1.1\r\nHost: `,
      "missing (HTTP/1.0)": `${credit} HTTP/1.0`,
      "another port": `${credit} HTTP/1.1\r\nHost: 127.0.0.1:${Number(port) + 1}`,
      "no port": `${credit} HTTP/1.1\r\nHost: 127.0.0.1`,
      "userinfo": `${credit} HTTP/1.1\r\nHost: evil@${own}`,
      "a path after it": `${credit} HTTP/1.1\r\nHost: ${own}/ts/events?`,
      "a listed host on another port": `${credit} HTTP/1.1\r\nHost: proxy.internal:8081`,
      "a callback": `POST /ts/callbacks/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 0`,
    };
    for (const [name, head] of Object.entries(refused)) {
      const r = await rawTo(c, head);
      assert.equal(r.status, 421, `${name}: ${r.head}`);
      assert.equal(r.json?.error, "host_refused", name);
      assert.doesNotMatch(r.head, /access-control-allow-origin/, name);
    }
    // Refused by Node or by toNodeListener with a 400: no Host in HTTP/1.1, two of them, an
    // absolute-form target (whatever host it names).
    const bad = {
      "missing (HTTP/1.1)": `${credit} HTTP/1.1`,
      "duplicated, ours first": `${credit} HTTP/1.1\r\nHost: ${own}\r\nHost: evil.example`,
      "duplicated, ours last": `${credit} HTTP/1.1\r\nHost: evil.example\r\nHost: ${own}`,
      "absolute form, another host": `GET http://evil.example/ts/music/api/v1/generate/credit HTTP/1.1\r\nHost: ${own}`,
      "absolute form, our host": `GET http://${own}/ts/music/api/v1/generate/credit HTTP/1.1\r\nHost: ${own}`,
    };
    for (const [name, head] of Object.entries(bad)) {
      const r = await rawTo(c, head);
      assert.equal(r.status, 400, `${name}: ${r.head}`);
    }
    assert.deepEqual(calls, [], "authorize never saw a refused request");

    // Our own host, in any case, its loopback aliases, and the listed one are served.
    for (const host of [own, own.toUpperCase(), `localhost:${port}`, "proxy.internal:8080"]) {
      const r = await rawTo(c, `${credit} HTTP/1.1\r\nHost: ${host}`);
      assert.equal(r.status, 200, `${host}: ${r.head}`);
    }
    assert.equal(calls.length, 4);
  } finally {
    await c.close();
  }
});

test("a Web Request without a Host header (made in process) is judged by its URL", { skip }, async () => {
  const c = await startCompanion();
  try {
    const ok = await c.handler(new Request(`${c.url}/music/api/v1/generate/credit`, { headers: session("alice") }));
    assert.equal(ok.status, 200, await ok.text());
    const elsewhere = await c.handler(new Request("http://evil.example/ts/music/api/v1/generate/credit", { headers: session("alice") }));
    assert.equal(elsewhere.status, 421);
    const forged = await c.handler(new Request(`${c.url}/music/api/v1/generate/credit`, { headers: { ...session("alice"), host: "evil.example" } }));
    assert.equal(forged.status, 421);
  } finally {
    await c.close();
  }
});

test("allowedHosts: an entry that is not a host fails at start, naming the option", { skip }, () => {
  const base = { apiKey: KEY, publicUrl: "https://app.example/ts", authorize: () => "u" };
  for (const bad of [["http://proxy.internal"], ["proxy.internal/ts"], ["user@proxy.internal"], [""], "proxy.internal", [42]]) {
    assert.throws(() => server.createCompanion({ ...base, allowedHosts: bad }), (e) => e instanceof TypeError && /`allowedHosts`/.test(e.message), JSON.stringify(bad));
  }
  server.createCompanion({ ...base, allowedHosts: ["localhost:3000", "APP.internal", "[::1]:8080", "10.0.0.5"] }).close();
});
