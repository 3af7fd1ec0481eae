// What `tunesmith mcp` says, over stdio against the emulator: a first line that states the result,
// a short wait that is waited, schemas every validator reads, a missing key named at start, the key
// never in an answer even when an upstream echoes it, and the README's Inspector command line.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { once } from "node:events";
import { mkdtemp, readFile, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { KEY, PKG, UPLOAD, skip, wav } from "./companion/harness.mjs";
import { spawnMcp, text } from "./agents/stdio.mjs";

const SONG = { customMode: false, instrumental: true, model: "V4_5", prompt: "a calm piano piece" };

let mcp;
before(async () => {
  if (skip) return;
  mcp = await spawnMcp();
});
after(async () => mcp?.close());

test("the first text block states the result: the balance in credits, the upload's name and size", { skip }, async () => {
  const credits = await mcp.client.callTool({ name: "getCredits", arguments: {} });
  assert.equal(credits.isError, undefined, text(credits));
  const n = credits.structuredContent.credits;
  assert.equal(credits.content[0].text, `${n.toLocaleString("en-US")} credits`);
  const upload = await mcp.client.callTool({
    name: "uploadBase64",
    arguments: { base64Data: wav(1).toString("base64"), fileName: "hum.wav", uploadPath: "mcp-tests" },
  });
  assert.equal(upload.isError, undefined, text(upload));
  assert.match(upload.content[0].text, new RegExp(`^uploaded hum\\.wav \\(${wav(1).length.toLocaleString("en-US")} bytes\\)`));
});

test("waitSeconds 1 is waited: never \"still running after 0 s\"", { skip }, async () => {
  const result = await mcp.client.callTool({ name: "generate", arguments: { ...SONG, waitSeconds: 1 } });
  assert.equal(result.isError, undefined, text(result));
  assert.doesNotMatch(text(result), /after 0 s/);
  // Either the task ended within the second, or the answer says it waited it.
  if (result.structuredContent.state !== "succeeded") assert.match(text(result), /still running after [1-9]\d* s/);
});

test("no list of types in any schema: type [\"string\", \"integer\"] is an anyOf, for strict validators", { skip }, async () => {
  const lists = [];
  const walk = (s, where) => {
    if (Array.isArray(s)) return s.forEach((x, i) => walk(x, `${where}[${i}]`));
    if (!s || typeof s !== "object") return;
    if (Array.isArray(s.type)) lists.push(where);
    for (const [k, v] of Object.entries(s)) walk(v, `${where}.${k}`);
  };
  const { tools } = await mcp.client.listTools();
  for (const t of tools) {
    walk(t.inputSchema, `${t.name}.inputSchema`);
    walk(t.outputSchema, `${t.name}.outputSchema`);
  }
  assert.deepEqual(lists, []);
  const midi = tools.find((t) => t.name === "getMidi").outputSchema.properties;
  assert.deepEqual(midi.createTime.anyOf, [{ type: "string" }, { type: "integer" }]);
  assert.match(midi.createTime.description, /epoch milliseconds/);
});

test("started without TUNESMITH_API_KEY, it says so on stderr at once", { skip }, async () => {
  const keyless = await spawnMcp({ env: { TUNESMITH_API_KEY: undefined } });
  try {
    for (let i = 0; i < 200 && !keyless.stderr().includes("TUNESMITH_API_KEY"); i++) await new Promise((r) => setTimeout(r, 10));
    assert.match(keyless.stderr(), /TUNESMITH_API_KEY is not set/);
  } finally {
    await keyless.close();
  }
  assert.doesNotMatch(mcp.stderr(), /TUNESMITH_API_KEY is not set/, "not said when it is set");
});

/** An upstream that echoes the Authorization header into its error, plain, upper case and Base64. */
async function echoingUpstream() {
  const server = createServer((req, res) => {
    const auth = req.headers.authorization ?? "";
    const b64 = Buffer.from(`Authorization: ${auth}`).toString("base64");
    const basic = Buffer.from(`user:${auth.replace(/^Bearer /, "")}`).toString("base64");
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ code: 500, msg: `bad header ${auth} / ${b64} / ${auth.toUpperCase()} / Basic ${basic}`, data: null }));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

/** Every way the key may be spelt in an answer (the Base64 alignments among them). */
function spellingsOfKey() {
  const out = [KEY.toLowerCase()];
  for (const lead of ["", "x", "xy"]) {
    const b64 = Buffer.from(lead + KEY).toString("base64");
    out.push(b64.slice(Math.ceil((8 * lead.length) / 6), Math.floor((8 * (lead.length + KEY.length)) / 6)));
  }
  return out;
}

test("an upstream that echoes the Authorization header: the key is in no answer, in no spelling", { skip }, async () => {
  const upstream = await echoingUpstream();
  const echoed = await spawnMcp({ env: { TUNESMITH_BASE_URL: upstream.url } });
  try {
    const result = await echoed.client.callTool({ name: "getCredits", arguments: {} }, { timeout: 120_000 });
    assert.equal(result.isError, true);
    assert.match(text(result), /bad header/, "the upstream's error comes through");
    const whole = JSON.stringify(result);
    for (const spelling of spellingsOfKey()) {
      assert.ok(!whole.toLowerCase().includes(spelling.toLowerCase()), `${spelling} in ${whole}`);
    }
    assert.ok(!echoed.stderr().includes(KEY), "nor on stderr");
  } finally {
    await echoed.close();
    upstream.close();
  }
});

/**
 * A proxy in front of the emulator's upload host that writes the Authorization header it was sent
 * into the record of a successful upload (its `originalName`), plain and Base64: only the MCP
 * server's own scrub stands between it and the agent.
 */
async function echoingProxy() {
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const headers = { ...req.headers };
    delete headers.host;
    delete headers["content-length"];
    const upstream = await fetch(`${UPLOAD}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const body = await upstream.json();
    const auth = req.headers.authorization ?? "";
    if (body?.data) body.data.originalName = `as sent: ${auth} / ${Buffer.from(`Authorization: ${auth}`).toString("base64")}`;
    res.statusCode = upstream.status;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(body));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

test("a proxy that echoes the Authorization header into a successful record: blanked in structuredContent and text", { skip }, async () => {
  const proxy = await echoingProxy();
  const echoed = await spawnMcp({ env: { TUNESMITH_UPLOAD_URL: proxy.url } });
  try {
    const result = await echoed.client.callTool({
      name: "uploadBase64",
      arguments: { base64Data: wav(1).toString("base64"), fileName: "echo.wav", uploadPath: "mcp-tests" },
    });
    assert.equal(result.isError, undefined, text(result));
    assert.match(result.structuredContent.originalName, /^as sent: Bearer \[redacted\] \/ /);
    const whole = JSON.stringify(result);
    for (const spelling of spellingsOfKey()) {
      assert.ok(!whole.toLowerCase().includes(spelling.toLowerCase()), `${spelling} in ${whole}`);
    }
  } finally {
    await echoed.close();
    proxy.close();
  }
});

test("scrubber: the key blanked from text and structuredContent, inline data untouched", { skip }, async () => {
  const { scrubber } = await import(pathToFileURL(join(PKG, "mcp", "present.js")).href);
  const key = "sk-Very-Secret-123";
  const scrub = scrubber([key]);
  const header = Buffer.from(`Authorization: Bearer ${key}`).toString("base64");
  const out = scrub({
    content: [
      { type: "text", text: `a ${key.toUpperCase()} b ${header} c ${encodeURIComponent(key)}` },
      { type: "audio", data: "AAAA", mimeType: "audio/wav" },
    ],
    structuredContent: { msg: [`Bearer ${key}`], n: 3 },
    isError: true,
  });
  const whole = JSON.stringify(out);
  assert.ok(!whole.toLowerCase().includes(key.toLowerCase()), whole);
  assert.ok(!whole.includes(Buffer.from(key).toString("base64").slice(0, 16)), whole);
  assert.match(out.content[0].text, /^a \[redacted\] b /);
  assert.equal(out.content[1].data, "AAAA");
  assert.equal(out.structuredContent.n, 3);
});

test("the README's Inspector command line: its server arguments are accepted as the Inspector passes them", { skip }, async () => {
  const INSPECTOR = "npx @modelcontextprotocol/inspector -e TUNESMITH_API_KEY=$TUNESMITH_API_KEY -- npx -y tunesmith mcp --root ~/Music";
  const readme = await readFile(new URL("../../README.md", import.meta.url), "utf8");
  assert.ok(readme.includes(INSPECTOR), "the README gives this very command line");
  const music = await realpath(await mkdtemp(join(tmpdir(), "ts-inspector-")));
  await writeFile(join(music, "hum.wav"), wav(1));
  const served = await spawnMcp({ args: ["--root", music] });
  try {
    const tool = (await served.client.listTools()).tools.find((t) => t.name === "uploadFile");
    assert.ok(tool?.description.includes(music), "uploadFile offered inside the root");
    const result = await served.client.callTool({ name: "uploadFile", arguments: { path: join(music, "hum.wav") } });
    assert.equal(result.isError, undefined, text(result));
    assert.match(served.stderr(), new RegExp(`uploadFile reads only inside ${music}`));
  } finally {
    await served.close();
  }
});
