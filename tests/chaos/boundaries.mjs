// Chaos: the trust boundaries between a user and everyone else, each a count against its goal.
//   roots: an agent of the stdio MCP server (`tunesmith mcp`, the roots its client declares) names
//   files outside them, as written, through `..`, a symlink, a symlinked folder, a sibling folder
//   whose name starts like the root's; none may be read (uploaded). Files inside are, as a check.
//   uploads: two users upload to the same `uploadPath` and `fileName` through the companion; the
//   first one's file must keep its bytes.
//   mcp limits: `/mcp` requests past `requestsPerWindow`, and bodies past any sane size, must not be
//   served; the companion's memory with 48 `/mcp` bodies as long as it allows held one byte short at
//   once, and with 40 tool answers of inlined audio that their clients never read.
//   429: the companion's own 429s (requests per window, tasks in flight), as the package's Client
//   reads them: rate_limited, never insufficient_credits (the service's 429 on the music host).
//   forged callbacks: a user posts a callback on their own task's token whose tracks are another's
//   (never seen by the companion, or already another user's); a request naming them after must be
//   refused.
// Env: as tests/js (TUNESMITH_TEST_MUSIC_URL, .._UPLOAD_URL, .._API_KEY, TUNESMITH_PKG), CHAOS_SCALE
// (below 0.5, the short run of tests/js/chaos.test.mjs: the memory figures are not measured).
import { connect } from "node:net";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { FAST, atLeast, describe, env, goal, report, requireEmulator, scale, scaled, sleep } from "./_lib.mjs";
import { GENERATE, KEY, MUSIC, PKG, UPLOAD, create, freePort, pkg, pollRecord, recordFromService, session, wav } from "../js/companion/harness.mjs";
import { spawnCompanion } from "../js/companion/process.mjs";
const { MAX_BASE64_JSON_BYTES, MAX_JSON_BYTES } = await import(pathToFileURL(join(PKG, "server", "options.js")).href);
import { Client as McpClient, StdioClientTransport } from "../js/agents/mcp-client.mjs";

const NAME = "boundaries";
requireEmulator(NAME);
const started = Date.now();
const figures = {};
const goals = {};
const seen = []; // every answer and log line, for the key scan
const loose = JSON.stringify({ requestsPerWindow: 1e9, tasksInFlight: 1e6 });
/**
 * What the companion's memory may grow by while `/mcp` bodies are held or answers go unread: the
 * default `bodyBytesInFlight` (32 MiB), and as much again for the rest. Both loads weigh far more
 * (48 bodies of 14 MiB; 40 answers of some 3 MB of Base64 audio each).
 */
const RSS_GOAL_MB = 64;

/** Runs one part; a part that throws is a missed goal of its own, and the others still run. */
async function part(name, body) {
  const t0 = Date.now();
  try {
    await body();
  } catch (e) {
    console.error(`${NAME}: ${name} failed:`, e?.stack ?? e);
    goals[`${name}Ran`] = { value: `error: ${describe(e)}`, target: "runs", met: false };
  }
  figures[`${name}Seconds`] = Number(((Date.now() - t0) / 1000).toFixed(1));
}

/** A JSON-RPC request to `/mcp` as `user`; resolves with `{ status, text }`. */
async function mcpPost(c, user, message) {
  const r = await fetch(`${c.url}/mcp`, {
    method: "POST",
    headers: { ...session(user), "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: typeof message === "string" ? message : JSON.stringify(message),
  }).catch((e) => ({ status: "error", text: async () => describe(e) }));
  const text = await r.text().catch(() => "");
  seen.push(text);
  return { status: r.status, text };
}

const INITIALIZE = (id, extra = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "chaos", version: "1", ...extra } },
});

/** Opens a raw socket with one request's head written; resolves with the socket. */
function openRaw(c, head) {
  const { port } = new URL(c.url);
  return new Promise((resolve) => {
    const s = connect(Number(port), "127.0.0.1", () => resolve(s));
    s.on("error", () => {});
    s.write(head);
  });
}

/** Writes `bytes` of `chunk` to `s`, waiting for the socket to drain. */
async function writeAll(s, text) {
  const buf = Buffer.from(text);
  for (let at = 0; at < buf.length; at += 1 << 20) {
    if (s.destroyed) return;
    if (!s.write(buf.subarray(at, at + (1 << 20)))) await new Promise((r) => (s.once("drain", r), s.once("close", r)));
  }
}

/** Peak RSS of `c` while `during()` runs, sampled every 25 ms. */
async function peakRss(c, during) {
  let peak = await c.rssMb();
  const sampler = setInterval(async () => (peak = Math.max(peak, await c.rssMb().catch(() => 0))), 25);
  try {
    await during();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, await c.rssMb().catch(() => 0));
}

// ---- roots: the stdio MCP server reads no file outside the roots its client declares -----------------
await part("roots", async () => {
  const dir = await mkdtemp(join(tmpdir(), "chaos-roots-"));
  const root = join(dir, "root");
  const outside = join(dir, "outside");
  const sibling = join(dir, "rootx"); // starts like the root's name
  for (const d of [root, outside, sibling]) await mkdir(d);
  await writeFile(join(root, "inside.wav"), wav(1));
  await writeFile(join(outside, "secret.wav"), wav(2));
  await writeFile(join(sibling, "secret.wav"), wav(2));
  await symlink(join(outside, "secret.wav"), join(root, "link.wav"));
  await symlink(outside, join(root, "out"));
  const outsidePaths = [
    join(outside, "secret.wav"),
    `${root}/../outside/secret.wav`,
    "../outside/secret.wav",
    join(sibling, "secret.wav"),
    join(root, "link.wav"),
    "link.wav",
    join(root, "out", "secret.wav"),
    "out/secret.wav",
  ];
  const insidePaths = [join(root, "inside.wav"), "inside.wav"];
  const client = new McpClient({ name: "chaos-roots", version: "1.0.0" }, { capabilities: { roots: { listChanged: false } } });
  client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: pathToFileURL(root).href, name: "music" }] }));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(PKG, "cli", "tunesmith.js"), "mcp"],
    cwd: root,
    env: { PATH: process.env.PATH, TUNESMITH_API_KEY: KEY, TUNESMITH_BASE_URL: MUSIC, TUNESMITH_UPLOAD_URL: UPLOAD },
    stderr: "pipe",
  });
  const stderr = [];
  transport.stderr?.on("data", (d) => stderr.push(String(d)));
  await client.connect(transport);
  const upload = async (path) => {
    const result = await client.callTool({ name: "uploadFile", arguments: { path } }).catch((e) => ({ isError: true, content: [{ type: "text", text: describe(e) }] }));
    const text = result.content?.map((c) => c.text ?? "").join(" ") ?? "";
    seen.push(text);
    return { read: !result.isError, text };
  };
  const readOutside = [];
  for (const path of outsidePaths) if ((await upload(path)).read) readOutside.push(path.replace(dir, "<tmp>"));
  let insideRead = 0;
  const refusedInside = [];
  for (const path of insidePaths) {
    const r = await upload(path);
    if (r.read) insideRead++;
    else refusedInside.push(`${path.replace(dir, "<tmp>")}: ${r.text.slice(0, 160)}`);
  }
  await client.close();
  seen.push(stderr.join(""));
  await rm(dir, { recursive: true, force: true });
  Object.assign(figures, { outsidePathsTried: outsidePaths.length, outsideRead: readOutside, insideRefused: refusedInside });
  goals.filesOutsideTheRootsRead = goal(readOutside.length, 0);
  goals.filesInsideTheRootsUploaded = atLeast(insideRead, insidePaths.length);
});

// ---- uploads: one user's upload never overwrites another's ------------------------------------------
await part("uploads", async () => {
  const c = await spawnCompanion({ COMPANION_LIMITS: loose });
  const rounds = scaled(3, 1);
  let tried = 0;
  let overwritten = 0;
  const examples = [];
  const base64 = async (user, bytes, fileName) => {
    const r = await fetch(`${c.url}/upload/api/file-base64-upload`, {
      method: "POST",
      headers: { ...session(user), "content-type": "application/json" },
      body: JSON.stringify({ uploadPath: "shared", fileName, base64Data: Buffer.from(bytes).toString("base64") }),
    });
    const text = await r.text();
    seen.push(text);
    return JSON.parse(text).data?.downloadUrl;
  };
  const stream = async (user, bytes, fileName) => {
    const form = new FormData();
    form.append("uploadPath", "shared");
    form.append("fileName", fileName);
    form.append("file", new Blob([bytes], { type: "audio/wav" }), fileName);
    const r = await fetch(`${c.url}/upload/api/file-stream-upload`, { method: "POST", headers: session(user), body: form });
    const text = await r.text();
    seen.push(text);
    return JSON.parse(text).data?.downloadUrl;
  };
  for (let i = 0; i < rounds; i++) {
    for (const [how, send] of [["base64", base64], ["stream", stream]]) {
      const fileName = `song-${process.pid}-${i}-${how}.wav`;
      const mine = wav(1);
      const theirs = wav(2);
      const url = await send("alice", mine, fileName);
      if (!url) throw new Error(`alice's ${how} upload was refused`);
      await send("mallory", theirs, fileName).catch(() => null);
      tried++;
      const now = Buffer.from(await (await fetch(url)).arrayBuffer());
      if (!now.equals(mine)) {
        overwritten++;
        if (examples.length < 2) examples.push(`${how}: alice's ${url.replace(UPLOAD, "")} now holds ${now.length} bytes, not her ${mine.length}`);
      }
    }
  }
  await c.kill();
  seen.push(c.output.join(""));
  Object.assign(figures, { uploadsOverwriteAttempts: tried, overwrittenExamples: examples });
  goals.foreignUploadsOverwritten = goal(overwritten, 0);
});

// ---- /mcp: its requests counted like any other, its bodies held within the limits -----------------------
await part("mcpLimits", async () => {
  // Windows are fixed (counted per `Math.floor(now / windowMs)`): a long one, and the answers counted
  // per window as the companion counts them, so that a run across a boundary (where 5 more may pass)
  // is no false miss.
  const perWindow = 5;
  const windowMs = 600_000;
  const c = await spawnCompanion({
    COMPANION_LIMITS: JSON.stringify({ requestsPerWindow: perWindow, tasksInFlight: 1e6, windowMs }),
    COMPANION_OPTIONS: JSON.stringify({ mcp: true }),
  });
  const sent = scaled(20, 10);
  const statuses = {};
  const servedPerWindow = {};
  for (let i = 0; i < sent; i++) {
    const window = Math.floor(Date.now() / windowMs);
    const r = await mcpPost(c, "chatty", INITIALIZE(i));
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    if (r.status === 200) servedPerWindow[window] = (servedPerWindow[window] ?? 0) + 1;
  }
  const servedOver = Object.values(servedPerWindow).reduce((n, served) => n + Math.max(0, served - perWindow), 0);
  // A valid JSON-RPC request padded to 17 MiB (past any body limit of the companion's).
  const big = JSON.stringify(INITIALIZE(1, { pad: "x".repeat(17 * 2 ** 20) }));
  let bigServed = 0;
  for (let i = 0; i < 3; i++) if ((await mcpPost(c, `big${i}`, big)).status === 200) bigServed++;
  await c.kill();
  seen.push(c.output.join(""));
  Object.assign(figures, { mcpRequestsSent: sent, mcpStatuses: statuses, mcpOversizedServed: bigServed });
  goals.mcpRequestsOverTheLimitServed = goal(servedOver + bigServed, 0);
});

await part("mcpMemory", async () => {
  // Some 700 MB sent and two companions' memory sampled: the full run's only, not the short one's.
  if (scale() < 0.5) return void (figures.mcpMemory = "not measured below CHAOS_SCALE 0.5");
  // 48 users each send a `/mcp` body as long as the companion allows (with uploadBase64 allowed,
  // as here: 14 MiB of Base64 JSON and the envelope's 64 KiB) but its last byte, and hold it there:
  // some 675 MiB in all unless the companion reads them within its body bytes in flight.
  const c = await spawnCompanion({ COMPANION_LIMITS: loose, COMPANION_OPTIONS: JSON.stringify({ mcp: true }) });
  const cap = MAX_BASE64_JSON_BYTES + MAX_JSON_BYTES;
  const head = JSON.stringify(INITIALIZE(1, { pad: "" }));
  const body = head.replace('"pad":""', `"pad":"${"x".repeat(cap - Buffer.byteLength(head))}"`);
  if (Buffer.byteLength(body) !== cap) throw new Error(`the held body is ${Buffer.byteLength(body)} bytes, not ${cap}`);
  const idle = await c.rssMb();
  const sockets = [];
  const answers = {};
  const peak = await peakRss(c, async () => {
    await Promise.all(
      Array.from({ length: 48 }, async (_, i) => {
        const s = await openRaw(
          c,
          `POST /ts/mcp HTTP/1.1\r\nHost: ${new URL(c.url).host}\r\nX-Session: held${i}-session\r\nContent-Type: application/json\r\n` +
            `Accept: application/json, text/event-stream\r\nContent-Length: ${cap}\r\n\r\n`,
        );
        let answer = "";
        s.on("data", (d) => (answer += d));
        sockets.push({ s, answer: () => answer });
        await writeAll(s, body.slice(0, -1));
      }),
    );
    await sleep(1500);
  });
  for (const { s, answer } of sockets) {
    const status = answer().match(/^HTTP\/1\.1 (\d+)/)?.[1] ?? "held";
    const limit = answer().match(/"limit":"(\w+)"/)?.[1];
    const key = limit ? `${status} ${limit}` : status;
    answers[key] = (answers[key] ?? 0) + 1;
    s.destroy();
  }
  Object.assign(figures, { heldMcpBodies: `48 of ${cap} bytes (the cap), each but its last byte`, heldMcpAnswers: answers });
  goals.rssGrowthWith48HeldMcpBodiesMb = goal(Number((peak - idle).toFixed(0)), RSS_GOAL_MB);
  await c.kill();
  seen.push(c.output.join(""));

  // 40 tool calls with the audio inlined, whose clients never read the answer. Over HTTP the
  // companion inlines 1 MiB per call by default, less than a song: the probe allows 16 MiB (the
  // stdio server's default), so that each answer carries its audio.
  const d = await spawnCompanion({ COMPANION_LIMITS: loose, COMPANION_OPTIONS: JSON.stringify({ mcp: { maxInlineBytes: 16 * 2 ** 20 } }) });
  const user = "inliner";
  const taskId = await create(d, user);
  await pollRecord(d, user, `/music/api/v1/generate/record-info?taskId=${taskId}`, (r) => r.body?.data?.status === "SUCCESS");
  const call = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "getTask", arguments: { taskId, inlineAudio: true, waitSeconds: 0 } } });
  const init = await mcpPost(d, user, INITIALIZE(1));
  const one = await mcpPost(d, user, call);
  figures.inlineAnswerBytes = one.text.length;
  figures.inlineAnswerStatus = one.status;
  // The load is real only if the answer carries the audio itself.
  goals.inlineAnswerCarriesAudio = atLeast((one.text.match(/"type":"audio"/g) ?? []).length, 1);
  if (!goals.inlineAnswerCarriesAudio.met) figures.inlineAnswerStart = one.text.slice(0, 400);
  const idleD = await d.rssMb();
  const unread = [];
  const peakD = await peakRss(d, async () => {
    for (let i = 0; i < 40; i++) {
      const s = await openRaw(
        d,
        `POST /ts/mcp HTTP/1.1\r\nHost: ${new URL(d.url).host}\r\nX-Session: ${user}-session\r\nContent-Type: application/json\r\n` +
          `Accept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(call)}\r\n\r\n${call}`,
      );
      s.pause(); // never reads
      unread.push(s);
    }
    await sleep(4000);
  });
  unread.forEach((s) => s.destroy());
  await d.kill();
  seen.push(d.output.join(""), init.text);
  figures.unreadInlineAnswers = 40;
  goals.rssGrowthWith40UnreadInlineAnswersMb = goal(Number((peakD - idleD).toFixed(0)), RSS_GOAL_MB);
});

// ---- 429: the companion's refusals, as the Client reads them ---------------------------------------------
await part("rateLimits", async () => {
  const kinds = {};
  const read = (e) => (kinds[e?.kind ?? describe(e)] = (kinds[e?.kind ?? describe(e)] ?? 0) + 1);
  let refusals = 0;
  let asCredits = 0;
  let notRateLimited = 0;
  const note = (e) => {
    if (e?.status !== 429 && e?.httpStatus !== 429 && !/429/.test(String(e?.message))) return;
    refusals++;
    read(e);
    if (e.kind === "insufficient_credits") asCredits++;
    if (e.kind !== "rate_limited") notRateLimited++;
  };
  // Requests per window.
  const c = await spawnCompanion({ COMPANION_LIMITS: JSON.stringify({ requestsPerWindow: 3, tasksInFlight: 1e6 }) });
  const client = new pkg.Client({ companionUrl: c.url, headers: session("counted"), maxRetries: 0 });
  for (let i = 0; i < 8; i++) await client.getCredits().catch(note);
  await c.kill();
  seen.push(c.output.join(""));
  // Tasks in flight: callbacks go to a closed port, so the first task never ends.
  const [closed, dPort] = [await freePort(), await freePort()];
  const d = await spawnCompanion({
    COMPANION_LIMITS: JSON.stringify({ requestsPerWindow: 1e9, tasksInFlight: 1 }),
    COMPANION_PUBLIC_URL: `http://127.0.0.1:${closed}/ts`,
    COMPANION_PORT: String(dPort),
  });
  const tasks = new pkg.Client({ companionUrl: `http://127.0.0.1:${dPort}/ts`, headers: session("busy"), maxRetries: 0 });
  for (let i = 0; i < 3; i++) await tasks.generate(GENERATE).catch(note);
  await d.kill();
  seen.push(d.output.join(""));
  Object.assign(figures, { companion429s: refusals, companion429sReadAs: kinds });
  goals.companion429sRead = atLeast(refusals, 5 + 2);
  goals.companion429ReadAsInsufficientCredits = goal(asCredits, 0);
  goals.companion429NotReadAsRateLimited = goal(notRateLimited, 0);
});

// ---- forged callbacks: a token of one's own task claims nothing of another's -------------------------------
await part("forgedCallbacks", async () => {
  // Callbacks of the companion go to a closed port: no real one ends the probe's tasks, whose
  // tokens stay live for the forgeries.
  const closed = await freePort();
  const port = await freePort();
  const c = await spawnCompanion({ COMPANION_LIMITS: loose, COMPANION_PORT: String(port), COMPANION_PUBLIC_URL: `http://127.0.0.1:${closed}/ts` });
  const url = `http://127.0.0.1:${port}/ts`;
  const companion = { url };
  // A real callback of the service's, for its shape: a song made straight on the service.
  const direct = new pkg.Client({ apiKey: env.key, baseUrl: MUSIC, uploadUrl: UPLOAD });
  const inbox = `chaos-forge-${process.pid}-${Date.now()}`;
  const rounds = scaled(3, 1);
  const victims = [];
  for (let i = 0; i < rounds; i++) {
    const song = await direct.generate({ ...GENERATE, callBackUrl: `${MUSIC}/inbox/${inbox}-${i}` }, { wait: FAST });
    victims.push({ who: "made outside the companion", ids: song.tracks.map((t) => t.id), inbox: `${inbox}-${i}` });
  }
  // Another user's song through the companion, whose record they read (its ids are theirs).
  const theirs = await create(companion, "victim");
  const record = await pollRecord(companion, "victim", `/music/api/v1/generate/record-info?taskId=${theirs}`, (r) => r.body?.data?.status === "SUCCESS");
  victims.push({ who: "another user's", ids: record.body.data.response.sunoData.map((t) => t.id), inbox: `${inbox}-0` });
  let forged = 0;
  let accepted = 0;
  const statuses = {};
  const examples = [];
  for (const victim of victims) {
    let bodies = [];
    for (let i = 0; i < 50 && !bodies.some((b) => b?.data?.callbackType === "first"); i++) {
      bodies = (await (await fetch(`${MUSIC}/inbox/${victim.inbox}`)).json()).items.map((item) => item.body);
      await sleep(100);
    }
    const shape = bodies.find((b) => b?.data?.callbackType === "first") ?? bodies[0];
    if (!shape) throw new Error("the service delivered no callback to copy");
    const own = await create(companion, "mallory");
    const { callBackUrl } = JSON.parse((await recordFromService(own)).param);
    const token = callBackUrl.slice(callBackUrl.lastIndexOf("/") + 1);
    const body = structuredClone(shape);
    body.data.task_id = own;
    body.data.data = (body.data.data ?? []).map((track, i) => ({ ...track, id: victim.ids[i % victim.ids.length] }));
    forged++;
    const r = await fetch(`${url}/callbacks/${token}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    seen.push(await r.text());
    // Accepted: a request of mallory's naming one of the claimed tracks passes the companion's check
    // (a query, which starts no task of the service's: anything but the reference's 404).
    for (const audioId of victim.ids) {
      const a = await fetch(`${url}/music/api/v1/generate/get-timestamped-lyrics`, {
        method: "POST",
        headers: { ...session("mallory"), "content-type": "application/json" },
        body: JSON.stringify({ taskId: own, audioId }),
      });
      const text = await a.text();
      seen.push(text);
      const refused = a.status === 404 && /"field":"audioId"/.test(text);
      if (!refused) {
        accepted++;
        if (examples.length < 2) examples.push(`${victim.who} track, callback answered ${r.status}, then get-timestamped-lyrics ${a.status}`);
        break;
      }
    }
  }
  await c.kill();
  seen.push(c.output.join(""));
  Object.assign(figures, { forgedCallbacks: forged, forgedCallbackStatuses: statuses, forgedAcceptedExamples: examples });
  goals.forgedCallbacksClaimingForeignIdsAccepted = goal(accepted, 0);
});

goals.keyInAnswersOrLogs = goal(seen.filter((s) => s.includes(env.key)).length, 0);
figures.seconds = Number(((Date.now() - started) / 1000).toFixed(1));
report(NAME, figures, goals);
process.exit(process.exitCode ?? 0);
