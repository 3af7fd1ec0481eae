// The one follower (follow.js) that the page's push waiter, the CLI and the MCP server share: each
// of them imports it and none keeps a table of stages or states of its own; and what it reports,
// fed the emulator's own records of every family, is what the client's waiters (protocol/, in
// Rust) report: each rank once, in order, a music stage passed between two records included,
// the final record once.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { GENERATE, KEY, MUSIC, PKG, UPLOAD, pkg, skip, wav } from "./companion/harness.mjs";

const TEMPLATE = new URL("../../pkg-template/", import.meta.url);
const follower = skip ? {} : await import(pathToFileURL(join(PKG, "follow.js")).href);
const tables = skip ? {} : await import(pathToFileURL(join(PKG, "server", "routes.js")).href);

/** The modules that wait and report progress, and the follower they must share. */
const USERS = ["push.js", "cli/tunesmith.js", "cli/output.js", "mcp/tools.js"];

/**
 * A stage or state named as data, or ranked: a quoted name (`"text"`, `'succeeded'`), a status
 * word (`TEXT_SUCCESS`), or a name keyed to a number (`{ text: 1 }`). Each was one of the tables
 * the follower replaced.
 */
const STAGE_TABLE = /["'`](?:pending|text|first|complete|running|succeeded|failed)["'`]|[A-Z]+_SUCCESS\b|\b(?:pending|text|first|complete|running|succeeded|failed)\s*:\s*\d/;

test("push.js, the CLI and the MCP server follow with follow.js, and none of them keeps a stage table", async () => {
  for (const file of USERS) {
    const source = await readFile(new URL(file, TEMPLATE), "utf8");
    assert.match(source, /from "\.{1,2}\/follow\.js"/, `${file} imports the follower`);
    const lines = source.split("\n").filter((l) => !/^\s*(\/\/|\*|\/\*\*)/.test(l));
    const tables = lines.filter((l) => STAGE_TABLE.test(l));
    assert.deepEqual(tables, [], `${file} names stages or states itself`);
  }
  // The follower takes them from the generated table, and is page-safe: no Node module, no package.
  const follow = await readFile(new URL("follow.js", TEMPLATE), "utf8");
  const imports = [...follow.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
  assert.deepEqual(imports, ["./server/routes.js"]);
  const { files } = JSON.parse(await readFile(new URL("package.json", TEMPLATE), "utf8"));
  assert.ok(files.includes("follow.js"), "the package ships it");
});

/**
 * Every family's records, from the emulator through the client's own (polling) waiters: the
 * records `onProgress` got (the waiter's choice: each rank once, a passed music stage as the
 * waiter's copy), the record a query read right after the create, and the final record.
 */
const seen = {};
before(async () => {
  if (skip) return;
  const client = new pkg.Client({ apiKey: KEY, baseUrl: MUSIC, uploadUrl: UPLOAD });
  const callBackUrl = "http://127.0.0.1:9/callbacks";
  const QUERY = Object.fromEntries(tables.ROUTES.filter((r) => r.method === "GET" && r.family).map((r) => [r.family, r]));
  const run = async (family, created) => {
    const { taskId } = await created;
    const q = QUERY[family];
    const read = await client[q.operation]({ [q.taskIds[0]]: taskId });
    const reports = [];
    const result = await client[tables.WAITERS[family]](taskId, { onProgress: (r) => reports.push(r), minIntervalMs: 50 });
    seen[family] = { read, reports, result };
    return result;
  };
  const song = await run("music", client.generate({ ...GENERATE, callBackUrl }));
  const [taskId, audioId] = [song.taskId, song.tracks[0].id];
  await run("cover", client.generateCover({ taskId, callBackUrl }));
  await run("wav", client.convertToWav({ taskId, audioId, callBackUrl }));
  await run("lyrics", client.generateLyrics({ prompt: "rain on the window", callBackUrl }));
  const stems = await run("vocal_separation", client.separateVocals({ taskId, audioId, type: "split_stem", callBackUrl }));
  await run("video", client.generateVideo({ taskId, audioId, callBackUrl }));
  await run("midi", client.generateMidi({ taskId: stems.taskId, audioId: stems.response.originData[0].id, callBackUrl }));
  await run("recovery", client.recoverAudio({ sunoTaskId: taskId, callBackUrl }));
  const upload = async (seconds, name) => (await client.uploadFile(new File([wav(seconds)], name, { type: "audio/wav" }))).downloadUrl;
  const phrase = await run("voice_validation", client.validateVoice({ voiceUrl: await upload(12, "voice.wav"), vocalStartS: 0, vocalEndS: 10, callBackUrl }));
  await run("voice", client.createVoice({ taskId: phrase.taskId, verifyUrl: await upload(6, "phrase.wav"), callBackUrl }));
});

/** What `progressOf` reports, fed `records` in order: `[record, rank]` pairs. */
function fed(family, records) {
  const out = [];
  const news = follower.progressOf(family, (record, rank) => out.push([record, rank]));
  for (const r of records) news(r);
  return out;
}

/** A music record as the waiters tell it apart: its stage, state and status. */
const face = (r) => ({ stage: r.stage, state: r.state, status: r.status });

test("each family's records, repeated, are reported at each rank once, in order, the final one last", { skip, timeout: 300_000 }, () => {
  assert.equal(Object.keys(seen).length, Object.keys(tables.WAITERS).length, "a task of every family");
  for (const [family, { read, reports, result }] of Object.entries(seen)) {
    const steps = follower.stepsOf(family);
    // The emulator's records, each of them twice, the final one three times.
    const records = [read, read, ...reports.flatMap((r) => [r, r]), result];
    const out = fed(family, records);
    const ranks = out.map(([, rank]) => rank);
    assert.deepEqual(ranks, [...new Set(ranks)].sort(), `${family}: ranks ${ranks}`);
    // The first final record fed (the read right after the create, when the task had already
    // ended by then: a slower emulator, such as the wasm build, gets there first).
    const final = records.find((r) => follower.rankOf(family, r) === steps.length - 1);
    assert.equal(out.at(-1)[0], final, `${family}: the final record, once, last`);
    assert.equal(out.at(-1)[0].state, "succeeded", family);
    assert.equal(follower.rankOf(family, result), steps.length - 1, `${family}: the final rank is the last step`);
    // Each report names its step: a music task's stage, the others' state.
    for (const [record, rank] of out) assert.equal(steps[rank], family === "music" ? record.stage : record.state, family);
    // The client's waiter reported what the follower reports of the same records.
    assert.deepEqual(fed(family, reports).map(([r]) => r), reports, `${family}: as the waiter reported`);
    assert.ok(follower.isFinal(result) && !follower.isFinal(read), family);
  }
});

test("a music task that passed stages between two records: the follower makes each stage's record as the Rust waiter does", { skip }, () => {
  const { reports } = seen.music;
  assert.deepEqual(reports.map((r) => r.stage), follower.stepsOf("music").slice(follower.rankOf("music", reports[0])));
  assert.ok(reports.length >= 3, reports.map((r) => r.stage).join());
  // The first and the last record only: the stages between are made over the last one, each with
  // the stage, state and status the emulator's record (or the Rust waiter's copy) has.
  const out = fed("music", [reports[0], reports.at(-1)]);
  assert.deepEqual(out.map(([r]) => face(r)), reports.map(face));
  assert.equal(out.at(-1)[0], reports.at(-1));
  // Nothing counts as passed before the first report.
  assert.deepEqual(fed("music", [reports.at(-1)]).map(([r]) => r.stage), ["complete"]);
});

test("follow: the record read, the pushed ones, then the waiter; each step once, the final one from the waiter", { skip, timeout: 60_000 }, async () => {
  const client = new pkg.Client({ apiKey: KEY, baseUrl: MUSIC, uploadUrl: UPLOAD });
  const { taskId } = await client.generate({ ...GENERATE, callBackUrl: "http://127.0.0.1:9/callbacks" });
  const { read, reports } = seen.music;
  const got = [];
  let closed = false;
  const result = await follow(client, taskId, {
    read: async () => read,
    // Pushed: repeats, the stages in order, then a final record (which ends them, unreported).
    events: async function* (first) {
      assert.equal(first, read);
      try {
        for (const r of [read, ...reports.slice(0, -1), reports[1]]) yield r;
        yield reports.at(-1);
        assert.fail("followed past a final record");
      } finally {
        closed = true;
      }
    },
    onProgress: (record, rank) => got.push([record.stage, rank]),
  });
  assert.ok(closed, "the pushed records are closed after the final one");
  assert.equal(result.state, "succeeded");
  assert.equal(result.taskId, taskId);
  const from = follower.rankOf("music", read);
  assert.deepEqual(got, follower.stepsOf("music").map((s, i) => [s, i]).slice(from));
});

test("follow: without a waiter the record read is the result, reported once; an onProgress that throws ends the wait with its error", { skip, timeout: 60_000 }, async () => {
  const { result: done } = seen.cover;
  const got = [];
  const same = await follower.follow({ family: "cover", read: () => done, onProgress: (r) => got.push(r) });
  assert.equal(same, done);
  assert.deepEqual(got, [done]);

  const client = new pkg.Client({ apiKey: KEY, baseUrl: MUSIC, uploadUrl: UPLOAD });
  const { taskId } = await client.generate({ ...GENERATE, callBackUrl: "http://127.0.0.1:9/callbacks" });
  const oops = new Error("the page's handler broke");
  // In the waiter's reports, and in the pushed ones (which are then closed).
  await assert.rejects(follow(client, taskId, { onProgress: () => { throw oops; } }), (e) => e === oops);
  let closed = false;
  const events = async function* () {
    try {
      yield* seen.music.reports;
    } finally {
      closed = true;
    }
  };
  await assert.rejects(follow(client, taskId, { events, onProgress: () => { throw oops; } }), (e) => e === oops);
  assert.ok(closed);
});

/** `follow` of a music task, its waiter the client's own. */
const follow = (client, taskId, options) =>
  follower.follow({
    family: "music",
    wait: (onProgress) => client.waitForTask(taskId, { onProgress, minIntervalMs: 50 }),
    ...options,
  });
