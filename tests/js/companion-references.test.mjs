// Users kept apart by every reference a request can carry: a repeated query parameter, the ids of
// tracks, stems, personas and voices (not only task ids), and the account's own balance.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  ALL_OPERATIONS, GENERATE, call, create, emulatorRequests, finishedSong, pollRecord, skip, startCompanion,
  uploadThrough, wav,
} from "./companion/harness.mjs";

let companion;
before(async () => {
  if (skip) return;
  companion = await startCompanion({ allow: ALL_OPERATIONS });
});
after(async () => companion?.close());

const CUSTOM = { customMode: true, instrumental: false, model: "V5", style: "folk", title: "Borrowed", prompt: "la la la" };

test("a repeated query parameter is refused with a 400 naming it, and nothing reaches the service", { skip }, async () => {
  const mine = await create(companion, "alice");
  const theirs = await create(companion, "bob");
  const tag = `repeated-${Date.now()}`;
  for (const query of [`taskId=${theirs}&taskId=${mine}`, `taskId=${mine}&taskId=${mine}`, `taskId=${mine}&taskId=`]) {
    const r = await call(companion, `/music/api/v1/generate/record-info?${query}`, { user: "alice", headers: { "x-emulator-tag": tag } });
    assert.equal(r.status, 400, `${query}: ${r.text}`);
    assert.equal(r.body.error, "validation");
    assert.equal(r.body.field, "taskId");
    assert.equal(r.body.rule, "repeated");
    assert.match(r.body.msg, /taskId/);
  }
  assert.deepEqual(await emulatorRequests(tag), [], "nothing was forwarded");
  // The query the service gets is the one checked, written anew: nothing the check did not see.
  const ok = await call(companion, `/music/api/v1/generate/record-info?taskId=${mine}`, { user: "alice", headers: { "x-emulator-tag": tag } });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual((await emulatorRequests(tag)).map((r) => r.query), [`taskId=${mine}`]);
});

test("another user's track is refused like another user's task: extend, convert, separate, persona", { skip }, async () => {
  const song = await finishedSong(companion, "alice");
  const tag = `foreign-audio-${Date.now()}`;
  const attempts = [
    ["/music/api/v1/generate/extend", { defaultParamFlag: false, audioId: song.audioId, model: "V4_5" }],
    ["/music/api/v1/wav/generate", { audioId: song.audioId }],
    ["/music/api/v1/generate/get-timestamped-lyrics", { audioId: song.audioId }],
  ];
  for (const [path, body] of attempts) {
    const r = await call(companion, path, { user: "bob", method: "POST", body, headers: { "x-emulator-tag": tag } });
    assert.equal(r.status, 404, `${path}: ${r.text}`);
    assert.equal(r.body.error, "not_found");
    assert.equal(r.body.field, "audioId", path);
  }
  assert.deepEqual(await emulatorRequests(tag), [], "nothing was forwarded");
  // Bob did not squat the conversion: the owner's own converts.
  const wavTask = await call(companion, "/music/api/v1/wav/generate", { user: "alice", method: "POST", body: { audioId: song.audioId } });
  assert.equal(wavTask.body.code, 200, wavTask.text);
});

test("another user's persona and custom voice cannot be sung with", { skip, timeout: 60_000 }, async () => {
  const song = await finishedSong(companion, "alice");
  const persona = await call(companion, "/music/api/v1/generate/generate-persona", {
    user: "alice",
    method: "POST",
    body: { taskId: song.taskId, audioId: song.audioId, name: "Mine", description: "warm folk voice" },
  });
  assert.equal(persona.body.code, 200, persona.text);
  const personaId = persona.body.data.personaId;

  // A custom voice: a recording, its validation phrase, the phrase recorded, the voice.
  const recording = await uploadThrough(companion, "alice", wav(12), "singer.wav");
  const validation = await create(companion, "alice", { voiceUrl: recording, vocalStartS: 1, vocalEndS: 10 }, "/music/api/v1/voice/validate");
  await pollRecord(companion, "alice", `/music/api/v1/voice/validate-info?taskId=${validation}`, (r) => r.body?.data?.status === "wait_validating");
  const verify = await uploadThrough(companion, "alice", wav(4), "phrase.wav");
  const voiceTask = await create(companion, "alice", { taskId: validation, verifyUrl: verify }, "/music/api/v1/voice/generate");
  const voice = await pollRecord(companion, "alice", `/music/api/v1/voice/record-info?taskId=${voiceTask}`, (r) => r.body?.data?.status === "success");
  const voiceId = voice.body.data.voiceId;
  assert.match(voiceId, /^voice_/);

  const tag = `foreign-persona-${Date.now()}`;
  for (const body of [
    { ...CUSTOM, personaId },
    { ...CUSTOM, personaId: voiceId, personaModel: "voice_persona" },
  ]) {
    const r = await call(companion, "/music/api/v1/generate", { user: "bob", method: "POST", body, headers: { "x-emulator-tag": tag } });
    assert.equal(r.status, 404, r.text);
    assert.equal(r.body.field, "personaId");
  }
  assert.deepEqual(await emulatorRequests(tag), [], "nothing was forwarded");
  // Their owner sings with both.
  for (const body of [{ ...CUSTOM, personaId }, { ...CUSTOM, personaId: voiceId, personaModel: "voice_persona" }]) {
    const r = await call(companion, "/music/api/v1/generate", { user: "alice", method: "POST", body });
    assert.equal(r.body.code, 200, r.text);
  }
});

test("another user's stem cannot be transcribed to MIDI, even under one's own separation", { skip, timeout: 60_000 }, async () => {
  const separate = async (user) => {
    const song = await finishedSong(companion, user);
    const taskId = await create(companion, user, { taskId: song.taskId, audioId: song.audioId, type: "split_stem" }, "/music/api/v1/vocal-removal/generate");
    const r = await pollRecord(companion, user, `/music/api/v1/vocal-removal/record-info?taskId=${taskId}`, (a) => a.body?.data?.successFlag === "SUCCESS");
    return { taskId, stem: r.body.data.response.originData[0].id };
  };
  const alice = await separate("alice");
  const bob = await separate("bob");
  const theft = await call(companion, "/music/api/v1/midi/generate", { user: "bob", method: "POST", body: { taskId: bob.taskId, audioId: alice.stem } });
  assert.equal(theft.status, 404, theft.text);
  assert.equal(theft.body.field, "audioId");
  const own = await call(companion, "/music/api/v1/midi/generate", { user: "bob", method: "POST", body: { taskId: bob.taskId, audioId: bob.stem } });
  assert.equal(own.body.code, 200, own.text);
});

test("a reference the companion has never seen is refused, not forwarded", { skip }, async () => {
  const tag = `unseen-${Date.now()}`;
  for (const [path, body, field] of [
    ["/music/api/v1/wav/generate", { audioId: "0123456789abcdef0123456789abcdef" }, "audioId"],
    ["/music/api/v1/generate", { ...CUSTOM, personaId: "0123456789abcdef0123456789abcdef" }, "personaId"],
  ]) {
    const r = await call(companion, path, { user: "alice", method: "POST", body, headers: { "x-emulator-tag": tag } });
    assert.equal(r.status, 404, r.text);
    assert.equal(r.body.field, field);
  }
  assert.deepEqual(await emulatorRequests(tag), []);
});

test("getCredits is out of the default allow: a user does not see the account's balance", { skip }, async () => {
  const plain = await startCompanion({ allow: undefined });
  try {
    const r = await call(plain, "/music/api/v1/generate/credit", { user: "alice" });
    assert.equal(r.status, 403, r.text);
    assert.equal(r.body.error, "operation_not_allowed");
    assert.equal((await call(plain, "/music/api/v1/generate", { user: "alice", method: "POST", body: GENERATE })).body.code, 200);
  } finally {
    await plain.close();
  }
  const listed = await call(companion, "/music/api/v1/generate/credit", { user: "alice" });
  assert.equal(listed.status, 200, "allowed when listed");
});
