// The types match what arrives in push mode: through a companion, every family's waiter hands
// `onProgress` the record its `.d.ts` declares (every field of it, `pending` included, as polling
// does), and resolves with the succeeded shape (no `null` where success fills in).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { GENERATE, PKG, pkg, session, skip, slowEmulator, startCompanion, uploadThrough, wav } from "./companion/harness.mjs";

// An emulator whose stages are 700 ms apart: the first record read is each task's first state
// (pending) on any machine, where the suite's (100 ms) may already have moved on.
let companion, slow;
before(async () => {
  if (skip) return;
  slow = await slowEmulator(700);
  companion = await startCompanion({ baseUrl: slow.music, uploadUrl: slow.upload });
});
after(async () => {
  await companion?.close();
  await slow?.close();
});

/** The fields an interface of the package's `.d.ts` declares, the required ones and all. */
async function declared(name) {
  const text = await readFile(join(PKG, "tunesmith.d.ts"), "utf8");
  const body = text.match(new RegExp(`export interface ${name}(?: extends (\\w+))? \\{\\n([\\s\\S]*?)\\n\\}`));
  assert.ok(body, `${name} is declared`);
  const fields = [...body[2].matchAll(/^\s+(\w+)(\??):/gm)];
  const base = body[1] ? await declared(body[1]) : { own: [], required: [], all: [] };
  return {
    own: fields.map((f) => f[1]),
    required: [...new Set([...base.required, ...fields.filter((f) => !f[2]).map((f) => f[1])])],
    all: [...new Set([...base.all, ...fields.map((f) => f[1])])],
  };
}

/** Waits with `wait` through the companion; checks every record onProgress got, and the result. */
async function check(family, record, run, first = "pending") {
  const reported = [];
  const result = await run({ onProgress: (r) => reported.push(r) });
  const shape = await declared(record);
  const done = await declared(`Succeeded${record}`);
  assert.ok(reported.length >= 2, `${family}: ${reported.length} reports`);
  assert.equal(reported[0].state, first, `${family}: the first report is ${first}`);
  for (const r of reported) {
    assert.deepEqual(shape.required.filter((k) => !(k in r)), [], `${family}: onProgress record lacks fields of ${record}`);
    assert.deepEqual(Object.keys(r).filter((k) => !shape.all.includes(k)), [], `${family}: onProgress record has fields ${record} lacks`);
  }
  assert.equal(reported.at(-1).state, "succeeded", family);
  // What the succeeded shape narrows (its own fields) is there, not null.
  assert.ok(done.own.includes("state"), `Succeeded${record}`);
  for (const k of done.own) assert.ok(result[k] !== null && result[k] !== undefined, `${family}: ${k} of the result`);
  return result;
}

test("in push mode, onProgress gets every family's declared record, pending first, and the result its succeeded shape", { skip, timeout: 180_000 }, async () => {
  const client = new pkg.Client({ companionUrl: companion.url, headers: session("types") });
  const song = await check("music", "MusicTask", (wait) => client.generate(GENERATE, { wait }));
  const taskId = song.taskId;
  const audioId = song.tracks[0].id;
  await check("cover", "CoverTask", (wait) => client.generateCover({ taskId }, { wait }));
  await check("wav", "WavTask", (wait) => client.convertToWav({ taskId, audioId }, { wait }));
  await check("lyrics", "LyricsTask", (wait) => client.generateLyrics({ prompt: "rain on the window" }, { wait }));
  const stems = await check("vocal_separation", "VocalSeparationTask", (wait) =>
    client.separateVocals({ taskId, audioId, type: "split_stem" }, { wait }),
  );
  await check("video", "VideoTask", (wait) => client.generateVideo({ taskId, audioId }, { wait }));
  await check("midi", "MidiTask", (wait) =>
    client.generateMidi({ taskId: stems.taskId, audioId: stems.response.originData[0].id }, { wait }),
  );
  // A recovery's record has no pending state: its query answers 201, running, until the end.
  await check("recovery", "RecoveryTask", (wait) => client.recoverAudio({ sunoTaskId: taskId }, { wait }), "running");
  const voiceUrl = await uploadThrough(companion, "types", wav(12));
  const phrase = await check("voice_validation", "VoiceValidationTask", (wait) =>
    client.validateVoice({ voiceUrl, vocalStartS: 0, vocalEndS: 10 }, { wait }),
  );
  const verifyUrl = await uploadThrough(companion, "types", wav(6), "phrase.wav");
  await check("voice", "VoiceTask", (wait) => client.createVoice({ taskId: phrase.taskId, verifyUrl }, { wait }));
});
