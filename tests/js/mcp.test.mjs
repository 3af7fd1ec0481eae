// tunesmith/mcp driven by the official MCP client (the SDK's `Client`) against the emulator of
// `cargo xtask test`: over stdio (`tunesmith mcp`, as a host spawns it) and over Streamable HTTP
// through the companion (two users, who never see each other's tasks).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client, StdioClientTransport, StreamableHTTPClientTransport } from "./agents/mcp-client.mjs";
import { spawnMcp } from "./agents/stdio.mjs";
import { KEY, MUSIC, PKG, UPLOAD, session, skip, slowEmulator, startCompanion, wav } from "./companion/harness.mjs";

/** The emulator's log of the queries that name `taskId`. */
const queriesOf = async (taskId) =>
  (await (await fetch(`${MUSIC}/_emulator/requests`)).json()).requests.filter((r) => r.query?.includes(taskId));

const CLI = join(PKG, "cli", "tunesmith.js");
const SONG = { customMode: false, instrumental: true, model: "V4_5", prompt: "a calm piano piece" };

/**
 * Every progress notification that reached the client's transport, in order, as `client.wire`. The
 * SDK's client hands a notification to `onprogress` a microtask after reading it, but settles the
 * call as soon as it reads the answer: a notification read in the same chunk as the answer is
 * dropped (reported to `onerror` as an unknown token), however early the server sent it. What the
 * server sent is asserted on the wire; `onprogress` gets what the client delivered.
 */
async function connect(client, transport) {
  await client.connect(transport);
  client.wire = [];
  const dispatch = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (message?.method === "notifications/progress") client.wire.push(message.params);
    return dispatch?.(message, extra);
  };
  return client;
}

/** A folder of local files, the root of the shared stdio server (`tunesmith mcp --root DIR`). */
let FILES;

async function stdioClient(env = {}) {
  return connect(
    new Client({ name: "tunesmith-tests", version: "1.0.0" }),
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp", "--root", FILES],
      env: { PATH: process.env.PATH, TUNESMITH_API_KEY: KEY, TUNESMITH_BASE_URL: MUSIC, TUNESMITH_UPLOAD_URL: UPLOAD, ...env },
      stderr: "pipe",
    }),
  );
}

async function httpClient(companion, user) {
  return connect(
    new Client({ name: `tunesmith-tests-${user}`, version: "1.0.0" }),
    new StreamableHTTPClientTransport(new URL(`${companion.url}/mcp`), { requestInit: { headers: session(user) } }),
  );
}

/** The progress notifications of one call on the wire, by the start of their message. */
const sent = (client, prefix) => client.wire.filter((p) => p.message.startsWith(prefix));

const text = (result) => result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

/** @type {Client} */
let stdio;
before(async () => {
  if (skip) return;
  const { mkdtemp, realpath } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  FILES = await realpath(await mkdtemp(join(tmpdir(), "ts-mcp-")));
  stdio = await stdioClient();
});
after(async () => stdio?.close());

test("stdio: one tool per operation, with the request's schema and the record as outputSchema", { skip }, async () => {
  const { tools } = await stdio.listTools();
  const names = tools.map((t) => t.name);
  assert.equal(names.length, 37, names.join(","));
  const generate = tools.find((t) => t.name === "generate");
  assert.deepEqual(generate.inputSchema.required.sort(), ["customMode", "instrumental", "model"]);
  assert.equal(generate.inputSchema.properties.prompt.type, "string");
  assert.equal(generate.inputSchema.properties.waitSeconds.type, "number");
  assert.ok(generate.outputSchema.properties.tracks, "a create's output is the task's final record");
  assert.equal(tools.find((t) => t.name === "getCredits").outputSchema.properties.credits.type, "number");
  assert.ok(tools.find((t) => t.name === "uploadFile").inputSchema.required.includes("path"));
});

test("stdio: a generate waits with a progress notification per stage and answers with resource links", { skip }, async () => {
  const progress = [];
  const client = stdio;
  // README:mcp-call:start
  const result = await client.callTool(
    {
      name: "generate",
      arguments: { customMode: false, instrumental: true, model: "V4_5", prompt: "a calm piano piece", waitSeconds: 60 },
    },
    { onprogress: (p) => progress.push(p), timeout: 90_000 }, // one notification per stage
  );
  // result.structuredContent: the MusicTask; result.content: a resource_link per track.
  for (const c of result.content) if (c.type === "resource_link") console.log(c.title, c.uri, c.mimeType);
  // README:mcp-call:end
  assert.equal(result.isError, undefined, text(result));
  assert.equal(result.structuredContent.state, "succeeded");
  const wire = sent(client, `generate ${result.structuredContent.taskId}:`);
  const stages = wire.map((p) => p.message.split(": ")[1]);
  assert.ok(stages.includes("created") && stages.includes("complete"), stages.join(","));
  for (let i = 1; i < wire.length; i++) assert.ok(wire[i].progress > wire[i - 1].progress);
  assert.ok(progress.length >= 1 && progress.every((p, i) => p.message === wire[i].message), "onprogress gets them in order");
  const links = result.content.filter((c) => c.type === "resource_link");
  assert.equal(links.length, result.structuredContent.tracks.length);
  for (const [i, link] of links.entries()) {
    const track = result.structuredContent.tracks[i];
    assert.equal(link.uri, track.audioUrl);
    assert.equal(link.title, track.title);
    assert.equal(link.mimeType, "audio/wav");
    assert.equal(link._meta["tunesmith/duration"], track.duration);
  }
  assert.ok(!result.content.some((c) => c.type === "audio"), "audio only when asked");
});

test("stdio: the audio inline when asked, covers as images, lyrics as text", { skip }, async () => {
  const song = await stdio.callTool({ name: "generate", arguments: { ...SONG, inlineAudio: true } }, { timeout: 90_000 });
  const audio = song.content.filter((c) => c.type === "audio");
  assert.equal(audio.length, 2, text(song));
  assert.equal(Buffer.from(audio[0].data, "base64").subarray(0, 4).toString(), "RIFF");
  const taskId = song.structuredContent.taskId;

  const covers = await stdio.callTool({ name: "generateCover", arguments: { taskId } }, { timeout: 90_000 });
  const images = covers.content.filter((c) => c.type === "image");
  assert.ok(images.length >= 1, text(covers));
  assert.equal(images[0].mimeType, "image/png");
  assert.equal(Buffer.from(images[0].data, "base64").subarray(1, 4).toString(), "PNG");

  const lyrics = await stdio.callTool({ name: "generateLyrics", arguments: { prompt: "a song about the sea" } }, { timeout: 90_000 });
  assert.equal(lyrics.structuredContent.state, "succeeded");
  const texts = lyrics.content.filter((c) => c.type === "text").map((c) => c.text);
  assert.ok(texts.some((t) => t.includes(lyrics.structuredContent.lyrics[0].text)), texts.join("\n---\n"));
});

test("stdio: a bound the caller sets: waitSeconds 0 answers at once with the running task, getTask waits on", { skip }, async () => {
  // Stages a second apart: on the suite's emulator (100 ms) a loaded machine may answer "at once"
  // only after the task has ended.
  const slow = await slowEmulator();
  const own = await spawnMcp({ env: { TUNESMITH_BASE_URL: slow.music, TUNESMITH_UPLOAD_URL: slow.upload } });
  try {
    const started = await own.client.callTool({ name: "generate", arguments: { ...SONG, waitSeconds: 0 } });
    assert.equal(started.isError, undefined, text(started));
    assert.notEqual(started.structuredContent.state, "succeeded");
    assert.match(text(started), /still running/);
    const done = await own.client.callTool(
      { name: "getTask", arguments: { taskId: started.structuredContent.taskId, waitSeconds: 60 } },
      { timeout: 90_000 },
    );
    assert.equal(done.structuredContent.state, "succeeded");
    const refused = await own.client.callTool({ name: "getTask", arguments: { taskId: "x", waitSeconds: 10_000 } });
    assert.equal(refused.isError, true);
    assert.match(text(refused), /waitSeconds/);
  } finally {
    await own.close();
    await slow.close();
  }
});

test("stdio: the package's own validation refuses before anything is charged, naming the field", { skip }, async () => {
  const before = (await stdio.callTool({ name: "getCredits", arguments: {} })).structuredContent.credits;
  const result = await stdio.callTool({ name: "generate", arguments: { ...SONG, prompt: "x".repeat(3001) } });
  assert.equal(result.isError, true);
  assert.match(text(result), /ValidationError \(validation, field prompt, rule max_length\)/);
  const misspelt = await stdio.callTool({ name: "generate", arguments: { ...SONG, promt: "typo" } });
  assert.match(text(misspelt), /field promt/);
  assert.match(text(misspelt), /prompt/);
  const after = (await stdio.callTool({ name: "getCredits", arguments: {} })).structuredContent.credits;
  assert.equal(after, before);
});

test("stdio: a failed task is an error result carrying the service's status", { skip }, async () => {
  const result = await stdio.callTool(
    { name: "generate", arguments: { ...SONG, prompt: "emulate:SENSITIVE_WORD_ERROR" } },
    { timeout: 90_000 },
  );
  assert.equal(result.isError, true);
  assert.match(text(result), /task_failed/);
  assert.match(text(result), /SENSITIVE_WORD_ERROR/);
});

test("stdio: cancelling a call stops its waiting at once: no query of the task follows", { skip }, async () => {
  const tagged = await stdioClient();
  try {
    const abort = new AbortController();
    const progress = [];
    const call = tagged.callTool(
      { name: "generate", arguments: { ...SONG, waitSeconds: 60 } },
      { signal: abort.signal, onprogress: (p) => progress.push(p), timeout: 90_000 },
    );
    while (progress.length === 0) await new Promise((r) => setTimeout(r, 20));
    const taskId = progress[0].message.split(" ")[1].replace(/:$/, "");
    abort.abort("the user clicked stop");
    await assert.rejects(call);
    await new Promise((r) => setTimeout(r, 200));
    const seen = await queriesOf(taskId);
    await new Promise((r) => setTimeout(r, 3000));
    const later = await queriesOf(taskId);
    assert.equal(later.length, seen.length, "no query after the cancellation");
  } finally {
    await tagged.close();
  }
});

test("stdio: a local file uploads with byte progress", { skip }, async () => {
  const { writeFile } = await import("node:fs/promises");
  const path = join(FILES, "hum.wav");
  const audio = wav(1);
  await writeFile(path, audio);
  const progress = [];
  const result = await stdio.callTool({ name: "uploadFile", arguments: { path } }, { onprogress: (p) => progress.push(p) });
  assert.equal(result.isError, undefined, text(result));
  assert.equal(result.structuredContent.fileSize, audio.length);
  const wire = sent(stdio, "uploading hum.wav");
  assert.equal(wire.at(-1)?.progress, audio.length, JSON.stringify(wire) + JSON.stringify(result.content.slice(0, 1)));
  assert.ok(progress.every((p, i) => p.progress === wire[i].progress), "onprogress gets them in order");
  const link = result.content.find((c) => c.type === "resource_link");
  assert.equal(link.uri, result.structuredContent.downloadUrl);
});

// ---- Over Streamable HTTP, through the companion --------------------------------------------

let companion;
before(async () => {
  if (skip) return;
  // README:mcp-companion:start
  companion = await startCompanion({
    mcp: true, // {publicUrl}/mcp: every tool call runs as the caller, through authorize, allow and limits
    allow: ["generate", "getTask", "getCover", "generateCover", "uploadFile", "uploadBase64"],
  });
  // README:mcp-companion:end
});
after(async () => companion?.close());

test("http: the companion's allow decides the tools; a local path upload is never offered", { skip }, async () => {
  const alice = await httpClient(companion, "alice");
  try {
    const names = (await alice.listTools()).tools.map((t) => t.name).sort();
    assert.deepEqual(names, ["generate", "generateCover", "getCover", "getTask", "uploadBase64"]);
    const generate = (await alice.listTools()).tools.find((t) => t.name === "generate");
    assert.ok(!generate.inputSchema.required.includes("callBackUrl"), "the companion sets the callback");
  } finally {
    await alice.close();
  }
});

test("http: an unknown caller is refused before any MCP exchange", { skip }, async () => {
  const client = new Client({ name: "anonymous", version: "1.0.0" });
  await assert.rejects(client.connect(new StreamableHTTPClientTransport(new URL(`${companion.url}/mcp`))), /401|Unauthorized|authentication/i);
});

test("http: each tool call runs as its caller: one user never sees another's task", { skip }, async () => {
  const alice = await httpClient(companion, "alice");
  const bob = await httpClient(companion, "bob");
  try {
    const progress = [];
    const song = await alice.callTool(
      { name: "generate", arguments: { ...SONG, waitSeconds: 60 } },
      { onprogress: (p) => progress.push(p), timeout: 90_000 },
    );
    assert.equal(song.isError, undefined, text(song));
    assert.equal(song.structuredContent.state, "succeeded");
    const taskId = song.structuredContent.taskId;
    assert.ok(sent(alice, `generate ${taskId}:`).length >= 2, JSON.stringify(alice.wire));
    const mine = await alice.callTool({ name: "getTask", arguments: { taskId } });
    assert.equal(mine.structuredContent.taskId, taskId);
    const theirs = await bob.callTool({ name: "getTask", arguments: { taskId } });
    assert.equal(theirs.isError, true);
    assert.match(text(theirs), /not_found/);
    assert.ok(!text(theirs).includes(song.structuredContent.tracks[0].audioUrl));
    const cover = await bob.callTool({ name: "generateCover", arguments: { taskId } });
    assert.equal(cover.isError, true, "another user's task cannot be built upon");
    assert.match(text(cover), /not_found/);
  } finally {
    await alice.close();
    await bob.close();
  }
});

test("http: the companion's limits hold for tool calls", { skip }, async () => {
  // The /mcp exchange may count in the caller's requests too: then the refusal is the transport's
  // (HTTP 429) rather than a tool's error result. Either way, a fourth call never gets through.
  const limited = await startCompanion({ mcp: true, limits: { requestsPerWindow: 2, windowMs: 60_000 } });
  let carol;
  let refused = null;
  try {
    carol = await httpClient(limited, "carol");
    for (let i = 0; i < 3 && refused === null; i++) {
      const result = await carol.callTool({ name: "getCredits", arguments: {} });
      if (result.isError) refused = text(result);
    }
  } catch (e) {
    refused = `${e?.message ?? e}`;
  } finally {
    await carol?.close();
    await limited.close();
  }
  assert.match(refused ?? "not refused", /rate_limited|429|limit/);
});
