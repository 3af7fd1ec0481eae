// A user's project that mocks the network with Mock Service Worker (msw/node): its handler passes
// the service's requests to `tunesmith/emulator`, so code that sends with the global `fetch` talks
// to a stateful emulated service instead of canned answers.
// README:emulator-msw:start
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { http } from "msw";
import { setupServer } from "msw/node";
import { Client, parseCallback } from "tunesmith";
import { createEmulator } from "tunesmith/emulator";

const stages = /** @type {string[]} */ ([]);
const emulator = await createEmulator({
  apiKey: "test-key",
  onCallback: (url, body) => void stages.push(parseCallback(body).stage),
});
// Requests to the emulator's two hosts go to it; anything else is an error of the test.
const server = setupServer(
  http.all(`${emulator.musicUrl}/*`, ({ request }) => emulator.fetch(request)),
  http.all(`${emulator.uploadUrl}/*`, ({ request }) => emulator.fetch(request)),
);
before(() => server.listen({ onUnhandledRequest: "error" }));
after(async () => {
  server.close();
  await emulator.close();
});

test("a song through the global fetch, answered by the emulator behind MSW", async () => {
  const client = new Client({
    apiKey: "test-key",
    baseUrl: emulator.musicUrl,
    uploadUrl: emulator.uploadUrl,
    // In Node the client sends through its own connection pool, which MSW does not see:
    // hand it the global fetch that MSW intercepts.
    fetch: (input, init) => fetch(input, init),
  });
  const hum = await readFile(new URL("hum.wav", import.meta.url));
  const file = await client.uploadFile(new File([hum], "hum.wav", { type: "audio/wav" }));
  const { taskId } = await client.addInstrumental({
    uploadUrl: file.downloadUrl,
    title: "Night drive",
    tags: "synthwave, warm pads",
    negativeTags: "heavy metal",
    callBackUrl: "https://app.example/callbacks",
  });
  await emulator.advance(60_000);
  assert.equal((await client.getTask({ taskId })).state, "succeeded");
  assert.deepEqual(stages, ["text", "first", "complete"]);
});
// README:emulator-msw:end

test("plain fetch code sees the emulator's envelopes, and MSW refuses any other host", async () => {
  const res = await fetch(`${emulator.musicUrl}/api/v1/generate/credit`, { headers: { authorization: "Bearer test-key" } });
  const body = await res.json();
  assert.equal(body.code, 200);
  assert.equal(typeof body.data, "number");
  const refused = await fetch(`${emulator.musicUrl}/api/v1/generate/credit`, { headers: { authorization: "Bearer wrong-key" } });
  assert.equal((await refused.json()).code, 401);
  await assert.rejects(fetch("http://elsewhere.example/"), /onUnhandledRequest/);
});
