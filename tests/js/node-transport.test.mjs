// In Node, a Client given no `fetch` sends through the package's keep-alive pool (node.js over
// server/upstream.js), not the global fetch; a caller's `fetch` still wins, a multipart upload still
// goes through the global fetch (the pool sends text bodies only), and timeouts and aborts still stop
// the request in flight. Each test watches a real server of its own on a raw socket level: what
// arrived, with which headers, and whether the connection was closed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PKG = process.env.TUNESMITH_PKG ?? join(ROOT, "pkg");
const { Client, TimeoutError, AbortError, ApiError } = await import(pathToFileURL(join(PKG, "node.js")).href);

/** A server answering every request with `answer(req, res)`; it records each request's method, path, headers and body. */
async function server(answer) {
  const seen = [];
  const closed = [];
  const s = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, raw: req.rawHeaders, body });
      answer(req, res);
    });
    req.on("close", () => closed.push(req.url));
  });
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${s.address().port}`;
  return { url, seen, closed, close: () => new Promise((r) => (s.closeAllConnections(), s.close(r))) };
}

const ok = (data) => (req, res) => {
  res.writeHead(200, { "content-type": "application/json", "x-request-id": "req-1" });
  res.end(JSON.stringify({ code: 200, msg: "success", data }));
};

test("with no `fetch`, the Node Client sends through the package's pool, not the global fetch", async (t) => {
  const s = await server(ok({ credits: 12 }));
  t.after(s.close);
  const original = globalThis.fetch;
  let globalCalls = 0;
  globalThis.fetch = (...a) => (globalCalls++, original(...a));
  t.after(() => (globalThis.fetch = original));
  const client = new Client({ apiKey: "key-node-pool", baseUrl: s.url, maxRetries: 0 });
  assert.deepEqual(await client.getCredits(), { credits: 12 });
  assert.equal(globalCalls, 0, "the global fetch was called");
  assert.equal(s.seen.length, 1);
  assert.equal(s.seen[0].headers["user-agent"], "tunesmith");
  assert.equal(s.seen[0].headers.authorization, "Bearer key-node-pool");
  // A JSON body goes as the same text, with its type.
  const answered = await server(ok({ taskId: "t-1" }));
  t.after(answered.close);
  await new Client({ apiKey: "k", baseUrl: answered.url, maxRetries: 0 }).generateLyrics({ prompt: "a song", callBackUrl: "https://example.com/cb" });
  assert.equal(answered.seen[0].headers["content-type"], "application/json");
  assert.deepEqual(JSON.parse(answered.seen[0].body), { prompt: "a song", callBackUrl: "https://example.com/cb" });
  assert.equal(globalCalls, 0);
});

test("a caller's User-Agent header is sent as theirs, once", async (t) => {
  const s = await server(ok({ credits: 1 }));
  t.after(s.close);
  const client = new Client({ apiKey: "k", baseUrl: s.url, maxRetries: 0, headers: { "User-Agent": "my-app/1.0" } });
  await client.getCredits();
  const agents = s.seen[0].raw.filter((_, i, raw) => i % 2 === 0 && raw[i].toLowerCase() === "user-agent");
  assert.equal(agents.length, 1, String(s.seen[0].raw));
  assert.equal(s.seen[0].headers["user-agent"], "my-app/1.0");
});

test("a header named `__proto__`, in the client's or the call's headers, is sent like any other and sets no prototype", async (t) => {
  const s = await server(ok({ credits: 2 }));
  t.after(s.close);
  // Own properties named `__proto__`, as JSON.parse makes them (a literal would set the prototype).
  const clientHeaders = JSON.parse('{"__proto__": "client", "x-a": "1"}');
  const callHeaders = JSON.parse('{"__proto__": "call"}');
  // Through the pool, on the wire (from the raw header lines: a parsed headers object would hide a
  // `__proto__` of its own).
  const pooled = new Client({ apiKey: "k", baseUrl: s.url, maxRetries: 0, headers: clientHeaders });
  await pooled.getCredits();
  await pooled.getCredits(undefined, { headers: callHeaders });
  const header = (raw, name) => raw.find((_, i) => i % 2 === 1 && raw[i - 1].toLowerCase() === name) ?? null;
  assert.deepEqual(
    s.seen.map((r) => [header(r.raw, "__proto__"), header(r.raw, "x-a")]),
    [["client", "1"], ["call", "1"]],
  );
  // To a caller's `fetch`, as an own property of `init.headers` (what that fetch does with it is
  // its own: undici's drops it when it converts the object).
  const given = [];
  const fetch = (url, init) => (given.push(init.headers), globalThis.fetch(url, init));
  const own = new Client({ apiKey: "k", baseUrl: s.url, maxRetries: 0, headers: clientHeaders, fetch });
  await own.getCredits();
  await own.getCredits(undefined, { headers: callHeaders });
  assert.deepEqual(
    given.map((h) => [Object.hasOwn(h, "__proto__") ? h["__proto__"] : null, h["x-a"]]),
    [["client", "1"], ["call", "1"]],
  );
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
  assert.equal({}.client, undefined);
});

test("a caller's `fetch` wins over the pool", async (t) => {
  const s = await server(ok({ credits: 3 }));
  t.after(s.close);
  let calls = 0;
  const client = new Client({ apiKey: "k", baseUrl: s.url, maxRetries: 0, fetch: (...a) => (calls++, fetch(...a)) });
  assert.deepEqual(await client.getCredits(), { credits: 3 });
  assert.equal(calls, 1);
  assert.notEqual(s.seen[0].headers["user-agent"], "tunesmith");
});

test("a multipart upload goes through the global fetch, which sends FormData", async (t) => {
  const s = await server(ok({ fileName: "a.wav", filePath: "u/a.wav", downloadUrl: "https://x/a.wav", fileSize: 4, mimeType: "audio/wav", uploadedAt: "2026-01-01T00:00:00Z" }));
  t.after(s.close);
  const client = new Client({ apiKey: "k", baseUrl: s.url, uploadUrl: s.url, maxRetries: 0 });
  const blob = new Blob([new Uint8Array([82, 73, 70, 70])], { type: "audio/wav" });
  const record = await client.uploadFile(new File([blob], "a.wav", { type: "audio/wav" }), { method: "stream", uploadPath: "u" });
  assert.equal(record.fileName, "a.wav");
  assert.match(s.seen[0].headers["content-type"], /^multipart\/form-data; boundary=/);
  assert.match(s.seen[0].body, /name="file"; filename="a.wav"/);
});

test("the pool's attempt ends at the timeout and at the caller's abort, closing the request in flight", async (t) => {
  const s = await server(() => {}); // never answers
  t.after(s.close);
  const client = new Client({ apiKey: "k", baseUrl: s.url, maxRetries: 0 });
  await assert.rejects(client.getCredits(undefined, { timeoutMs: 100 }), TimeoutError);
  const controller = new AbortController();
  const pending = client.getCredits(undefined, { signal: controller.signal });
  while (s.seen.length < 2) await new Promise((r) => setTimeout(r, 10));
  controller.abort();
  await assert.rejects(pending, AbortError);
  // Both requests' connections were closed by the client, not left open waiting for an answer.
  for (let i = 0; i < 100 && s.closed.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(s.closed.length, 2);
});

test("attempts in flight share one timer: a short timeout started after a long one still ends first", { timeout: 60_000 }, async () => {
  // A `fetch` that never answers and ignores its signal: only the attempt's own timer ends it.
  const client = new Client({ apiKey: "k", baseUrl: "http://127.0.0.1:9", maxRetries: 0, fetch: () => new Promise(() => {}) });
  const controller = new AbortController();
  const long = client.getCredits(undefined, { timeoutMs: 600_000, signal: controller.signal }).then(() => "resolved", (e) => e);
  // The timer is armed for the long deadline; the short one must move it earlier, not wait behind it.
  await assert.rejects(client.getCredits(undefined, { timeoutMs: 50 }), TimeoutError);
  assert.equal(await Promise.race([long, "still pending"]), "still pending");
  controller.abort();
  assert.ok((await long) instanceof AbortError, String(await long));
  // And the timer still serves the next attempt once both ended.
  await assert.rejects(client.getCredits(undefined, { timeoutMs: 20 }), TimeoutError);
});

test("with no call in flight, a Node process ends: the attempts' timer does not keep it alive", { timeout: 60_000 }, async (t) => {
  const s = await server(ok({ credits: 3 }));
  t.after(s.close);
  // A call with a ten-minute timeout, answered at once: the process must end on its own right after.
  const script = `
    const { Client } = await import(process.env.NODE_ENTRY);
    const client = new Client({ apiKey: "k", baseUrl: process.env.BASE, maxRetries: 0, timeoutMs: 600000 });
    console.log(JSON.stringify(await client.getCredits()));
  `;
  const out = await new Promise((res, rej) =>
    execFile(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, NODE_ENTRY: pathToFileURL(join(PKG, "node.js")).href, BASE: s.url },
      timeout: 30_000,
    }, (error, stdout, stderr) => (error ? rej(new Error(`the process did not end on its own: ${error.message}\n${stderr}`)) : res(stdout))),
  );
  assert.deepEqual(JSON.parse(out.trim()), { credits: 3 });
});

test("texts out of the module keep every character: short ASCII ones take a shortcut, the others do not", async (t) => {
  // The glue reads short ASCII strings out of wasm memory without TextDecoder (asciiText): a
  // message with other characters, or a long one, must still come out whole.
  const messages = ["参数错误: é ü — 🎵", "x".repeat(256), "y".repeat(257) + "é", "nul\u0000 and del\u007f"];
  const s = await server((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ code: 400, msg: messages[Number(new URL(req.url, "http://x").searchParams.get("taskId"))] }));
  });
  t.after(s.close);
  const client = new Client({ apiKey: "k", baseUrl: s.url, maxRetries: 0 });
  for (const [i, msg] of messages.entries()) {
    const error = await client.getTask({ taskId: String(i) }).then(() => assert.fail("resolved"), (e) => e);
    assert.ok(error instanceof ApiError, String(error));
    assert.ok(error.message.includes(msg), `${JSON.stringify(msg)} not in ${JSON.stringify(error.message)}`);
  }
});

test("a redirect is not followed (the key would go along): it is an ApiError with its status", async (t) => {
  const target = await server(ok({ credits: 1 }));
  t.after(target.close);
  const s = await server((req, res) => res.writeHead(302, { location: `${target.url}${req.url}` }).end());
  t.after(s.close);
  const client = new Client({ apiKey: "key-redirect", baseUrl: s.url, maxRetries: 0 });
  const error = await client.getCredits().then(() => assert.fail("resolved"), (e) => e);
  assert.ok(error instanceof ApiError, String(error));
  assert.equal(error.status, 302);
  assert.equal(target.seen.length, 0, "the redirect was followed");
});
