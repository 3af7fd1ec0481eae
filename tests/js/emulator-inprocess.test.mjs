// `tunesmith/emulator` in-process: the wasm build of the emulator behind `emulator.fetch`, driven
// by the package's own Client, its callbacks delivered to a handler, its clock moved by hand.
// Needs the package with the emulator's wasm (cargo xtask build-emulator-wasm, or `cargo xtask build`).

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { smallWav as wav } from "../e2e/_lib.mjs";

const PKG = process.env.TUNESMITH_PKG ?? fileURLToPath(new URL("../../pkg", import.meta.url));
const built = existsSync(join(PKG, "emulator", "tunesmith_emulator_bg.wasm"));
const skip = built ? false : `no emulator wasm in ${PKG}/emulator (cargo xtask build-emulator-wasm)`;
const { createEmulator } = built ? await import(pathToFileURL(join(PKG, "emulator", "index.js")).href) : {};
const { Client, parseCallback } = built ? await import(pathToFileURL(join(PKG, "node.js")).href) : {};

const KEY = "ts-inproc-key";

function clientOf(emulator) {
  return new Client({ apiKey: KEY, fetch: emulator.fetch, baseUrl: emulator.musicUrl, uploadUrl: emulator.uploadUrl });
}

test("addInstrumental runs to complete in-process on the manual clock, its callbacks to a handler", { skip }, async () => {
  const callbacks = [];
  const emulator = await createEmulator({ apiKey: KEY, onCallback: (url, body) => { callbacks.push({ url, body }); return 200; } });
  try {
    const client = clientOf(emulator);
    const stored = await client.uploadBase64(wav(2), { uploadPath: "tests", fileName: "voice.wav" });
    assert.ok(stored.downloadUrl.startsWith(emulator.uploadUrl), stored.downloadUrl);
    const { taskId } = await client.addInstrumental({
      uploadUrl: stored.downloadUrl, title: "In process", tags: "calm piano", negativeTags: "drums",
      callBackUrl: "https://app.example/callbacks",
    });
    assert.equal((await client.getTask({ taskId })).status, "PENDING");
    await emulator.advance(60_000);
    const done = await client.getTask({ taskId });
    assert.equal(done.status, "SUCCESS");
    const stages = callbacks.map((c) => parseCallback(c.body).stage);
    assert.deepEqual(stages, ["text", "first", "complete"]);
    assert.ok(callbacks.every((c) => c.url === "https://app.example/callbacks"));
    // The media is real: the track's audio is served by the emulator's music host.
    const audio = await emulator.fetch(done.tracks[0].audioUrl);
    assert.equal(audio.status, 200);
    assert.equal(new TextDecoder().decode((await audio.arrayBuffer()).slice(0, 4)), "RIFF");
  } finally {
    await emulator.close();
  }
});

test("a callback receiver that fails is retried when the clock reaches the retry, as on the native server", { skip }, async () => {
  let calls = 0;
  const emulator = await createEmulator({ apiKey: KEY, onCallback: () => (++calls === 1 ? 500 : 200) });
  try {
    const client = clientOf(emulator);
    const { taskId } = await client.generate({ customMode: false, instrumental: true, model: "V4_5", prompt: "a short calm piece", callBackUrl: "https://app.example/cb" });
    await emulator.advance(60_000);
    assert.equal((await client.getTask({ taskId })).status, "SUCCESS");
    const before = calls;
    await emulator.advance(60_000);
    assert.ok(calls > before, `the failed delivery was retried (${before} -> ${calls})`);
  } finally {
    await emulator.close();
  }
});

test("faults, credits and the request log of the in-process emulator", { skip }, async () => {
  const emulator = await createEmulator({ apiKey: KEY, credits: 50 });
  try {
    const client = clientOf(emulator);
    assert.equal(await emulator.credits.get(KEY), 50);
    assert.equal(await emulator.credits.set(7, KEY), 7);
    assert.equal((await client.getCredits()).credits, 7);
    await emulator.faults.arm({ tag: "t1", code: 500, times: 1 });
    const hit = await emulator.fetch(`${emulator.musicUrl}/api/v1/generate/credit`, { headers: { authorization: `Bearer ${KEY}`, "x-emulator-tag": "t1" } });
    assert.equal((await hit.json()).code, 500);
    const log = await emulator.requests({ tag: "t1" });
    assert.equal(log.length, 1);
    assert.equal(log[0].code, 500);
    await assert.rejects(emulator.fetch("http://elsewhere.example/"), /neither the emulator's music host/);
    await assert.rejects(emulator.advance(-1), RangeError);
  } finally {
    await emulator.close();
  }
});
