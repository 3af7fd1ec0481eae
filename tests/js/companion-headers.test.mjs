// Headers, as a hostile client or a misbehaving service would send them: the Host header decides
// nothing (and another host is refused: companion-trust.test.mjs), a request target that does not
// parse is a 400, and only known-good headers (and no spelling of the key) reach the page.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ALL_OPERATIONS, GENERATE, KEY, call, pkg, raw, session, skip, startCompanion } from "./companion/harness.mjs";
import { hostileService } from "./companion/upstreams.mjs";

let companion;
before(async () => {
  if (skip) return;
  companion = await startCompanion({ allow: ALL_OPERATIONS, origins: ["https://app.example"], forwardHeaders: ["x-emulator-tag", "x-emulate-code"] });
});
after(async () => companion?.close());

const hostPort = () => new URL(companion.url).host;

test("a crafted Host header cannot turn a request into another route", { skip }, async () => {
  const crafted = await raw(
    companion.url,
    `GET /ts/events HTTP/1.1\r\nHost: ${hostPort()}/ts/music/api/v1/generate/credit?\r\nX-Session: alice-session\r\nConnection: close\r\n\r\n`,
  );
  assert.equal(crafted.status, 421, crafted.head);
  assert.equal(JSON.parse(crafted.body).error, "host_refused");
  // With its own Host, the path decides.
  const r = await raw(
    companion.url,
    `GET /ts/events HTTP/1.1\r\nHost: ${hostPort()}\r\nX-Session: alice-session\r\n\r\n`,
    { until: (all) => all.includes("\r\n\r\n") },
  );
  assert.equal(r.status, 200, r.head);
  assert.match(r.head, /content-type: text\/event-stream/, "the event stream, as the path says");
});

test("CORS compares Origin with publicUrl's origin and `origins`, never with the Host header", { skip }, async () => {
  for (const host of [hostPort(), hostPort().replace("127.0.0.1", "localhost")]) {
    const r = await raw(
      companion.url,
      `GET /ts/music/api/v1/generate/credit HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://evil.example\r\nX-Session: alice-session\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(r.status, 403, r.head);
    assert.doesNotMatch(r.head, /access-control-allow-origin/);
  }
  // The companion's own origin (publicUrl's) is a same-origin page.
  const own = await call(companion, "/music/api/v1/generate/credit", { user: "alice", headers: { origin: new URL(companion.url).origin } });
  assert.equal(own.status, 200);
});

test("a request target that does not parse is a 400 with a body", { skip }, async () => {
  for (const line of [
    "GET http://evil.example/ts/events HTTP/1.1",
    "OPTIONS * HTTP/1.1",
    "TRACE /ts/events HTTP/1.1",
  ]) {
    const r = await raw(companion.url, `${line}\r\nHost: ${hostPort()}\r\nX-Session: alice-session\r\nConnection: close\r\n\r\n`);
    assert.equal(r.status, 400, `${line}: ${r.head}`);
    assert.equal(JSON.parse(r.body).error, "bad_request", line);
  }
});

test("only known-good headers reach the page: Retry-After, Retry-After-Ms, X-Request-Id, Content-Type", { skip }, async () => {
  const cases = {
    seconds: [{ "retry-after": "5", "retry-after-ms": "5000", "x-request-id": "req-1.a:b" }, { "retry-after": "5", "retry-after-ms": "5000", "x-request-id": "req-1.a:b" }],
    date: [{ "retry-after": "Wed, 21 Oct 2026 07:28:00 GMT" }, { "retry-after": "Wed, 21 Oct 2026 07:28:00 GMT" }],
    list: [{ "retry-after": "5, 6", "retry-after-ms": "1e3" }, {}],
    negative: [{ "retry-after": "-1", "retry-after-ms": "-5" }, {}],
    script: [{ "retry-after": "<script>alert(1)</script>", "x-request-id": "<img src=x onerror=alert(1)>" }, {}],
    html: [{ "content-type": "text/html" }, {}],
  };
  const service = await hostileService(({ headers }) => ({
    status: 200,
    headers: { "content-type": "application/json", ...cases[headers["x-emulator-tag"]][0] },
    body: JSON.stringify({ code: 200, msg: "success", data: 1 }),
  }));
  const c = await startCompanion({ baseUrl: service.url, allow: ALL_OPERATIONS });
  try {
    for (const [name, [, kept]] of Object.entries(cases)) {
      const r = await call(c, "/music/api/v1/generate/credit", { user: "alice", headers: { "x-emulator-tag": name } });
      assert.equal(r.status, 200, name);
      for (const h of ["retry-after", "retry-after-ms", "x-request-id"]) assert.equal(r.headers.get(h), kept[h] ?? null, `${name}: ${h}`);
      assert.match(r.headers.get("content-type"), /^(application\/json|text\/plain); charset=utf-8$/, name);
      assert.equal(r.headers.get("x-content-type-options"), "nosniff");
    }
  } finally {
    await c.close();
    await service.close();
  }
});

test("no spelling of the key reaches the page: upper case, lower case, Base64, URL-encoded", { skip }, async () => {
  const b64 = (s) => Buffer.from(s).toString("base64");
  const spellings = [
    KEY.toUpperCase(),
    KEY.toLowerCase(),
    b64(KEY),
    b64(`Bearer ${KEY}`),
    b64(`u:${KEY}`),
    Buffer.from(KEY).toString("base64url"),
    encodeURIComponent(KEY),
  ];
  const service = await hostileService(({ headers }) => ({
    status: 401,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code: 401, msg: `bad key ${spellings.join(" ")} from ${headers.authorization}`, data: null }),
  }));
  const c = await startCompanion({ baseUrl: service.url, allow: ALL_OPERATIONS });
  try {
    const r = await call(c, "/music/api/v1/generate/credit", { user: "alice" });
    assert.equal(r.status, 401);
    assert.match(r.body.msg, /bad key/);
    const found = [KEY, ...spellings].filter((s) => r.text.includes(s) || r.text.toLowerCase().includes(s.toLowerCase()));
    assert.deepEqual(found, []);
  } finally {
    await c.close();
    await service.close();
  }
});

test("x-request-id and retry-after-ms are exposed to pages, and an upload error keeps its request id", { skip }, async () => {
  const r = await fetch(`${companion.url}/upload/api/file-base64-upload`, {
    method: "POST",
    headers: { ...session("alice"), origin: "https://app.example", "content-type": "application/json", "x-emulate-code": "500" },
    body: JSON.stringify({ base64Data: Buffer.from("hello").toString("base64"), uploadPath: "companion" }),
  });
  await r.text();
  assert.equal(r.status, 500);
  assert.match(r.headers.get("x-request-id") ?? "", /\S/);
  const exposed = (r.headers.get("access-control-expose-headers") ?? "").split(/,\s*/);
  for (const h of ["retry-after", "retry-after-ms", "x-request-id"]) assert.ok(exposed.includes(h), `${h} in ${exposed}`);
  const client = new pkg.Client({ companionUrl: companion.url, headers: { ...session("alice"), "x-emulate-code": "500" } });
  const error = await client.uploadFile(new File([new Uint8Array(100)], "a.wav", { type: "audio/wav" }), { uploadPath: "companion" }).catch((e) => e);
  assert.ok(error instanceof pkg.ApiError, String(error));
  assert.match(error.requestId ?? "", /\S/, "the upload error names its request");
});

test("in Node, `authorize` reads the request as a Web Request: URL on publicUrl, headers, body, any other member", { skip }, async () => {
  const seen = [];
  const c = await startCompanion({
    allow: ALL_OPERATIONS,
    authorize: async (request) => {
      seen.push({
        url: request.url,
        method: request.method,
        session: request.headers.get("X-Session"),
        has: request.headers.has("x-session"),
        absent: request.headers.get("x-absent"),
        names: [...request.headers.keys()],
        copied: new Headers(request.headers).get("x-session"),
        pairs: Object.fromEntries(request.headers),
        cache: request.cache,
        clone: request.clone() instanceof Request,
      });
      return request.headers.get("x-session")?.replace(/-session$/, "") ?? null;
    },
  });
  try {
    const created = await call(c, "/music/api/v1/generate", { user: "alice", method: "POST", body: GENERATE, headers: { "x-tag": "a" } });
    assert.equal(created.status, 200, created.text);
    const [s] = seen;
    assert.equal(s.url, `${c.url}/music/api/v1/generate`);
    assert.equal(s.method, "POST");
    assert.equal(s.session, "alice-session");
    assert.equal(s.has, true);
    assert.equal(s.absent, null);
    assert.deepEqual(s.names, [...s.names].sort(), "names in order, as Headers lists them");
    assert.ok(s.names.includes("x-tag"));
    assert.equal(s.copied, "alice-session");
    assert.equal(s.pairs["x-tag"], "a");
    assert.equal(s.cache, "default");
    assert.equal(s.clone, true);
    // The body, read after authorize touched the Request made for `clone()`, still reaches the service.
    assert.match(created.body.data.taskId, /./);
  } finally {
    await c.close();
  }
});
