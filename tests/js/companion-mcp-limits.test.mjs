// The companion's `/mcp` route is held to the companion's limits: its requests count in the user's
// requests per window and in flight, its bodies are capped small (413 before they are read whole)
// and count in the body bytes in flight, a `subscriptions/listen` is one of the user's event
// streams, and the audio a tool call inlines counts in the body bytes too. Counts, never timings.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "node:net";
import { createServer } from "node:http";
import { once } from "node:events";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PKG, finishedSong, pkg, raw, server, session, skip, sleep, startCompanion } from "./companion/harness.mjs";

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const LIST = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };

/** One JSON-RPC message POSTed to `/mcp` as `user`: `{ status, text, body }` (body: the refusal's JSON). */
async function mcpPost(c, user, message, headers = {}) {
  const r = await fetch(`${c.url}/mcp`, { method: "POST", headers: { ...session(user), ...MCP_HEADERS, ...headers }, body: JSON.stringify(message) });
  const text = await r.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: r.status, text, body, headers: r.headers };
}

/** A `subscriptions/listen` of the 2026 revision, as the SDK's modern client sends it. */
const MODERN = "2026-07-28";
function listen(id) {
  return {
    jsonrpc: "2.0",
    id,
    method: "subscriptions/listen",
    params: {
      notifications: { toolsListChanged: true },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": { name: "probe", version: "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  };
}

/** Opens a listen of `user`; resolves with its status and an `end()` that closes it. */
async function openListen(c, user, id) {
  const abort = new AbortController();
  const r = await fetch(`${c.url}/mcp`, {
    method: "POST",
    headers: { ...session(user), ...MCP_HEADERS, "mcp-protocol-version": MODERN, "mcp-method": "subscriptions/listen" },
    body: JSON.stringify(listen(id)),
    signal: abort.signal,
  });
  const type = r.headers.get("content-type") ?? "";
  let body = null;
  if (!type.startsWith("text/event-stream")) body = JSON.parse(await r.text());
  return { status: r.status, type, body, end: () => abort.abort() };
}

/** A POST to `/mcp` whose body never ends (until `abort`): `head` is all that is sent of it. */
function hangingPost(c, user, head, abort) {
  return fetch(`${c.url}/mcp`, {
    method: "POST",
    headers: { ...session(user), ...MCP_HEADERS },
    body: new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode(head)) }),
    duplex: "half",
    signal: abort.signal,
  }).catch(() => null);
}

/** Gives the requests just sent the time to reach the companion (they stay in flight after it). */
const settle = () => sleep(300);

test("/mcp requests count in the user's requests per window: past it, refused with 429, none served", { skip }, async () => {
  const c = await startCompanion({ mcp: true, limits: { requestsPerWindow: 5, windowMs: 60_000 } });
  try {
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await mcpPost(c, "mo", { ...LIST, id: i }));
    const served = answers.filter((a) => a.status === 200).length;
    const refused = answers.filter((a) => a.status === 429 && a.body?.error === "rate_limited" && a.body.limit === "requestsPerWindow");
    assert.equal(served, 5, answers.map((a) => a.status).join(" "));
    assert.equal(refused.length, 7, "/mcp requests over the limit served: 0");
    assert.ok(Number(refused[0].headers.get("retry-after")) >= 1);
    // Another user has their own count.
    assert.equal((await mcpPost(c, "ann", LIST)).status, 200);
  } finally {
    await c.close();
  }
});

test("/mcp requests count in the user's requests in flight (429) and their bodies in the body bytes (503)", { skip }, async () => {
  const c = await startCompanion({ mcp: true, limits: { requestsInFlight: 2, bodyBytesInFlight: 100 * 1024 } });
  const abort = new AbortController();
  try {
    // Two bodies of 40 KB each, held one part short: two requests of Nell's in flight, 80 KB held.
    const head = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"${"a".repeat(40 * 1024)}`;
    hangingPost(c, "nell", head, abort);
    hangingPost(c, "nell", head, abort);
    await settle();
    const third = await mcpPost(c, "nell", LIST);
    assert.equal(third.status, 429, third.text.slice(0, 300));
    assert.equal(third.body.error, "too_many_requests");
    assert.equal(third.body.limit, "requestsInFlight");
    // Another user's body of 40 KB does not fit beside them in the 100 KiB.
    const big = await mcpPost(c, "otto", { ...LIST, params: { x: "b".repeat(40 * 1024) } });
    assert.equal(big.status, 503, big.text.slice(0, 300));
    assert.equal(big.body.error, "busy");
    assert.equal(big.body.limit, "bodyBytesInFlight");
    // A small one does, and the held ones give their bytes back when they end.
    assert.equal((await mcpPost(c, "otto", LIST)).status, 200);
    abort.abort();
    let after;
    for (let i = 0; i < 100; i++) {
      after = await mcpPost(c, "otto", { ...LIST, params: { x: "b".repeat(40 * 1024) } });
      if (after.status !== 503) break;
      await sleep(20);
    }
    assert.equal(after.status, 200, "the budget is given back");
  } finally {
    abort.abort();
    await c.close();
  }
});

test("an /mcp body past its cap is refused with 413 before it is read whole; larger when uploadBase64 is allowed", { skip }, async () => {
  const c = await startCompanion({ mcp: true, allow: ["generate", "getTask"] });
  const b64 = await startCompanion({ mcp: true, allow: ["uploadBase64"] });
  try {
    // A declared length past the cap: refused with nothing of the body sent.
    const declared = await raw(
      c.url,
      `POST /ts/mcp HTTP/1.1\r\nHost: ${new URL(c.url).host}\r\nx-session: pia-session\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${1024 * 1024}\r\n\r\n{`,
    );
    assert.equal(declared.status, 413, declared.head);
    assert.equal(JSON.parse(declared.body).error, "too_large");
    // An undeclared length: refused once past the cap, while the rest is still to come.
    const chunk = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"${"a".repeat(80 * 1024)}`;
    const undeclared = await raw(
      c.url,
      `POST /ts/mcp HTTP/1.1\r\nHost: ${new URL(c.url).host}\r\nx-session: pia-session\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n`,
    );
    assert.equal(undeclared.status, 413, undeclared.head);
    // With uploadBase64 allowed, a body of 1 MiB is read (and answered by the MCP server).
    const ok = await mcpPost(b64, "pia", { ...LIST, params: { x: "a".repeat(1024 * 1024) } });
    assert.equal(ok.status, 200, ok.text.slice(0, 300));
    const tooBig = await mcpPost(b64, "pia", { ...LIST, params: { x: "a".repeat(15 * 1024 * 1024) } });
    assert.equal(tooBig.status, 413);
  } finally {
    await c.close();
    await b64.close();
  }
});

test("a subscriptions/listen is one of the user's event streams: past the per-user cap refused, another user still gets one", { skip }, async () => {
  const c = await startCompanion({ mcp: true, limits: { eventStreams: 3 } });
  const open = [];
  try {
    for (let i = 0; i < 3; i++) open.push(await openListen(c, "mallory", `m${i}`));
    for (const l of open) assert.equal(l.status, 200, JSON.stringify(l.body));
    assert.ok(open.every((l) => l.type.startsWith("text/event-stream")));
    const fourth = await openListen(c, "mallory", "m3");
    assert.equal(fourth.status, 429, JSON.stringify(fourth.body));
    assert.equal(fourth.body.error, "too_many_streams");
    assert.equal(fourth.body.limit, "eventStreams");
    const alice = await openListen(c, "alice", "a0");
    open.push(alice);
    assert.equal(alice.status, 200, JSON.stringify(alice.body));
    assert.ok(alice.type.startsWith("text/event-stream"));
    // A listen closed gives its place back.
    open[0].end();
    let again;
    for (let i = 0; i < 100; i++) {
      again = await openListen(c, "mallory", `m-again-${i}`);
      if (again.status === 200) break;
      await sleep(20);
    }
    open.push(again);
    assert.equal(again.status, 200);
  } finally {
    for (const l of open) l.end();
    await c.close();
  }
});

/** A tool call's JSON-RPC result, read from a JSON or SSE answer. */
function resultOf(text) {
  const data = text.trim().startsWith("{") ? text : text.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5)).pop();
  return JSON.parse(data).result;
}

test("inlined audio counts in the body bytes in flight: past the budget a tool call answers with links", { skip, timeout: 120_000 }, async () => {
  // Three companions of one store: the task made through the first is Quinn's through all three.
  const store = server.memoryStore();
  const c = await startCompanion({ store });
  const roomy = await startCompanion({ store, mcp: { maxInlineBytes: 64 * 1024 * 1024 }, limits: { bodyBytesInFlight: 64 * 1024 * 1024 } });
  const tight = await startCompanion({ store, mcp: { maxInlineBytes: 64 * 1024 * 1024 }, limits: { bodyBytesInFlight: 16 * 1024 } });
  try {
    const { taskId } = await finishedSong(c, "quinn");
    const call = (companion) =>
      mcpPost(companion, "quinn", { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "getTask", arguments: { taskId, waitSeconds: 0, inlineAudio: true } } });
    const inlined = resultOf((await call(roomy)).text);
    const audio = inlined.content.filter((p) => p.type === "audio");
    assert.equal(audio.length, 2, JSON.stringify(inlined.content.map((p) => p.type)));
    assert.ok(audio.every((p) => p.data.length > 16 * 1024), "each track is larger than the tight budget");
    const linked = resultOf((await call(tight)).text);
    assert.equal(linked.content.filter((p) => p.type === "audio").length, 0, "nothing inlined past the budget");
    assert.equal(linked.content.filter((p) => p.type === "text" && /not inlined/.test(p.text)).length, 2);
    assert.equal(linked.content.filter((p) => p.type === "resource_link").length, 2);
  } finally {
    await c.close();
    await roomy.close();
    await tight.close();
  }
});

test("an inlined byte counts as many times as the answer copies it (INLINE_COPIES): a budget of 2 copies inlines nothing, of 4 one track", { skip, timeout: 120_000 }, async () => {
  const { INLINE_COPIES } = await import(pathToFileURL(join(PKG, "mcp", "http.js")).href);
  const store = server.memoryStore();
  const c = await startCompanion({ store });
  const mcp = { maxInlineBytes: 64 * 1024 * 1024 };
  const roomy = await startCompanion({ store, mcp, limits: { bodyBytesInFlight: 64 * 1024 * 1024 } });
  const companions = [c, roomy];
  try {
    const { taskId } = await finishedSong(c, "sol");
    const call = (companion) =>
      mcpPost(companion, "sol", { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "getTask", arguments: { taskId, waitSeconds: 0, inlineAudio: true } } });
    const audio = (text) => resultOf(text).content.filter((p) => p.type === "audio");
    // The Base64 length of each track, as the roomy companion inlines both.
    const sizes = audio((await call(roomy)).text).map((p) => p.data.length);
    assert.equal(sizes.length, 2);
    const largest = Math.max(...sizes);
    // Room for each track twice over: counted once a byte, both would be inlined.
    const twice = await startCompanion({ store, mcp, limits: { bodyBytesInFlight: 2 * largest } });
    companions.push(twice);
    assert.equal(audio((await call(twice)).text).length, 0, "nothing inlined within a budget of two copies");
    // Room for four copies of one track, not of two.
    const four = await startCompanion({ store, mcp, limits: { bodyBytesInFlight: INLINE_COPIES * largest + 1 } });
    companions.push(four);
    assert.equal(audio((await call(four)).text).length, 1, "one track inlined within four copies of it");
  } finally {
    for (const companion of companions) await companion.close();
  }
});

test("each tool's output schema is made once per process, not for each /mcp request's server (the SDK keeps every one it compiles)", { skip }, async () => {
  const { createMcpServer } = await import(pathToFileURL(join(PKG, "mcp", "server.js")).href);
  const client = new pkg.Client({ companionUrl: "http://127.0.0.1:9/ts" });
  const schemas = () => {
    const tools = /** @type {Record<string, { outputSchema?: unknown }>} */ (createMcpServer({ client })._registeredTools);
    assert.ok(tools && Object.keys(tools).length > 10, "the SDK's McpServer keeps its tools in _registeredTools");
    return Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, tool.outputSchema]));
  };
  const first = schemas();
  const second = schemas();
  const made = Object.keys(first).filter((name) => first[name] !== second[name]);
  assert.deepEqual(made, [], "output schemas made again for a second server");
});

test("an answer its client takes nothing of is dropped with its connection after writeTimeoutMs", { skip }, async () => {
  const body = "x".repeat(64 * 1024 * 1024);
  const http = createServer(server.toNodeListener(async () => new Response(body), { origin: "http://127.0.0.1", writeTimeoutMs: 300 }));
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  const accepted = once(http, "connection");
  const socket = connect(http.address().port, "127.0.0.1");
  try {
    await once(socket, "connect");
    socket.pause(); // reads nothing
    socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    const [served] = await accepted;
    const closed = once(served, "close").then(() => "closed");
    const guard = sleep(30_000).then(() => "still open after 30 s");
    assert.equal(await Promise.race([closed, guard]), "closed");
    assert.throws(() => server.toNodeListener(async () => new Response(""), { writeTimeoutMs: 0 }), /writeTimeoutMs/);
  } finally {
    socket.destroy();
    http.closeAllConnections?.();
    await new Promise((r) => http.close(r));
  }
});

/**
 * A raw POST to `/mcp` of `bytes` of body, its length declared, written as fast as the companion
 * takes it: resolves once the answer is in and the body is written whole or the companion closed
 * the connection, with the answer's status and whether the companion closed it.
 */
function postBody(c, user, bytes) {
  const { host, port } = new URL(c.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), "127.0.0.1");
    let answer = "";
    let closed = false;
    let written = false;
    const settle = () => {
      if (!/^HTTP\/1\.1 \d+[^]*\r\n\r\n/.test(answer) || !(closed || written)) return;
      socket.destroy();
      resolve({ status: Number(answer.slice(9, 12)), closed, body: answer.slice(answer.indexOf("\r\n\r\n") + 4) });
    };
    socket.on("data", (d) => ((answer += d), settle()));
    socket.on("error", () => {});
    socket.on("close", () => ((closed = true), settle()));
    socket.write(
      `POST /ts/mcp HTTP/1.1\r\nHost: ${host}\r\nx-session: ${user}-session\r\ncontent-type: application/json\r\n` +
        `accept: application/json, text/event-stream\r\ncontent-length: ${bytes}\r\n\r\n`,
    );
    (async () => {
      const chunk = Buffer.alloc(1 << 20, 120);
      for (let left = bytes; left > 0 && !socket.destroyed; left -= chunk.length) {
        if (!socket.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) {
          await new Promise((r) => (socket.once("drain", r), socket.once("close", r)));
        }
      }
      written = !socket.destroyed;
      settle();
    })();
  });
}

test("an /mcp body refused unread is not read through: the answer comes, then the connection closes (past 64 KiB of it)", { skip, timeout: 120_000 }, async () => {
  const c = await startCompanion({ mcp: true, allow: ["uploadBase64", "getTask"], limits: { bodyBytesInFlight: 1024 * 1024 } });
  const sockets = [];
  c.http.on("connection", (s) => sockets.push(s));
  const read = () => sockets.reduce((n, s) => n + s.bytesRead, 0);
  try {
    // 14 MiB declared, past the budget of 1 MiB: a 503 before any of it is read.
    const busy = await postBody(c, "rita", 14 * 1024 * 1024);
    assert.equal(busy.status, 503, busy.body);
    assert.equal(JSON.parse(busy.body).limit, "bodyBytesInFlight");
    assert.ok(busy.closed, "the connection is closed rather than the body read through");
    assert.ok(read() < 2 * 1024 * 1024, `the companion read ${read()} bytes of a refused body of 14 MiB`);
    // 64 MiB declared, past the cap: a 413, and as little read.
    sockets.length = 0;
    const tooLarge = await postBody(c, "rita", 64 * 1024 * 1024);
    assert.equal(tooLarge.status, 413, tooLarge.body);
    assert.ok(tooLarge.closed);
    assert.ok(read() < 2 * 1024 * 1024, `the companion read ${read()} bytes of a refused body of 64 MiB`);
    // A fetch client, which reads its answer while it sends, has the refusal itself.
    const fetched = await fetch(`${c.url}/mcp`, {
      method: "POST",
      headers: { ...session("rita"), ...MCP_HEADERS },
      body: JSON.stringify({ ...LIST, params: { x: "a".repeat(8 * 1024 * 1024) } }),
    });
    assert.equal(fetched.status, 503);
    assert.equal((await fetched.json()).limit, "bodyBytesInFlight");
    // A small body refused is read, and its connection serves the next request.
    const tight = await startCompanion({ mcp: true, limits: { bodyBytesInFlight: 16 * 1024 } });
    try {
      const { host, port } = new URL(tight.url);
      const socket = connect(Number(port), "127.0.0.1");
      socket.on("error", () => {});
      let answers = "";
      socket.on("data", (d) => (answers += d));
      const body = JSON.stringify({ ...LIST, params: { x: "a".repeat(32 * 1024) } });
      const post = () =>
        socket.write(
          `POST /ts/mcp HTTP/1.1\r\nHost: ${host}\r\nx-session: rita-session\r\ncontent-type: application/json\r\n` +
            `accept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      const statuses = async (n) => {
        while ((answers.match(/HTTP\/1\.1 \d+/g) ?? []).length < n && !socket.destroyed) await sleep(20);
        return (answers.match(/HTTP\/1\.1 (\d+)/g) ?? []).map((l) => Number(l.slice(9)));
      };
      post();
      assert.deepEqual(await statuses(1), [503]);
      post();
      assert.deepEqual(await statuses(2), [503, 503], "the second request on the connection is answered");
      socket.destroy();
    } finally {
      await tight.close();
    }
  } finally {
    await c.close();
  }
});
