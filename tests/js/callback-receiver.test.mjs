// A complete callback receiver with Node's `http` module, as the README shows it (the region between
// the README markers), fed by real deliveries of the emulator to an ephemeral port.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";

const { Client, CallbackDeduper, parseCallback } = await import(process.env.TUNESMITH_PKG + "/node.js");
const MUSIC = process.env.TUNESMITH_TEST_MUSIC_URL;
const client = new Client({ baseUrl: MUSIC, apiKey: process.env.TUNESMITH_TEST_API_KEY });

// What the app does with each new event; here: keep it for the assertions.
const handled = [];
const onEvent = (event) => handled.push(event);
process.env.PORT = "0"; // an ephemeral port for the test; the README's default is 3000

// README:callback-receiver:start
import { createServer } from "node:http";

const seen = new CallbackDeduper(); // the service may deliver the same stage more than once

const server = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  let event;
  try {
    event = parseCallback(Buffer.concat(chunks)); // { family, taskId, stage, state, tracks, ... }
  } catch {
    return res.writeHead(400).end(); // not a callback of the service
  }
  if (seen.isNew(event)) onEvent(event); // each stage of each task once
  res.writeHead(200).end(); // answer within 15 s, or the delivery counts as failed
});
server.listen(process.env.PORT ?? 3000);
// README:callback-receiver:end

await once(server, "listening");
const callBackUrl = `http://127.0.0.1:${server.address().port}/callbacks`;
const fast = { minIntervalMs: 20, maxIntervalMs: 50 };

/** Resolves once `predicate` holds for the handled events (deliveries follow the state change). */
async function until(predicate) {
  for (let i = 0; i < 200 && !predicate(handled); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(predicate(handled), `not delivered; handled: ${JSON.stringify(handled.map((e) => [e.family, e.stage]))}`);
}

test("every stage of a music task arrives once, typed, with playable tracks", async () => {
  const task = await client.generate(
    { customMode: false, instrumental: true, model: "V6", prompt: "Rain on a tin roof", callBackUrl },
    { wait: fast },
  );
  await until((h) => h.some((e) => e.taskId === task.taskId && e.stage === "complete"));
  const mine = handled.filter((e) => e.taskId === task.taskId);
  assert.deepEqual(mine.map((e) => [e.family, e.stage, e.state]), [
    ["music", "text", "running"],
    ["music", "first", "running"],
    ["music", "complete", "succeeded"],
  ]);
  assert.ok(mine[1].tracks[0].streamAudioUrl.startsWith("http"), "the first track streams at `first`");
  assert.deepEqual(mine[2].tracks.map((t) => t.id), task.tracks.map((t) => t.id));
  assert.equal(mine[2].tracks[0].audioUrl, task.tracks[0].audioUrl, "the same Track shape as waitForTask");

  const wav = await client.convertToWav({ taskId: task.taskId, audioId: task.tracks[0].id, callBackUrl }, { wait: fast });
  await until((h) => h.some((e) => e.family === "wav" && e.taskId === wav.taskId));
  assert.ok(handled.find((e) => e.taskId === wav.taskId).audioWavUrl.startsWith("http"));

  // A repeated delivery is acknowledged and not handled again; a malformed body is refused.
  const before = handled.length;
  const post = (body) => fetch(callBackUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
  assert.equal((await post(JSON.stringify(mine[2].raw))).status, 200);
  assert.equal(handled.length, before);
  assert.equal((await post("{ not json")).status, 400);
  assert.equal((await post(JSON.stringify({ code: 200, data: { task_id: "x" } }))).status, 400);
});

test("a failed task calls back with its error stage", async () => {
  const { taskId } = await client.generate({
    customMode: true, instrumental: false, model: "V6", callBackUrl,
    prompt: "la la", style: "pop", title: "emulate:SENSITIVE_WORD_ERROR",
  });
  await assert.rejects(client.waitForTask(taskId, fast), { name: "TaskFailedError", taskStatus: "SENSITIVE_WORD_ERROR" });
  await until((h) => h.some((e) => e.taskId === taskId));
  const event = handled.find((e) => e.taskId === taskId);
  assert.equal(event.stage, "error");
  assert.equal(event.state, "failed");
  assert.notEqual(event.code, 200);
  assert.deepEqual(event.tracks, []);
});

after(() => server.close());
