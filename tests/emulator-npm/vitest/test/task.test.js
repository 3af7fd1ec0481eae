// A user's project under Vitest: `tunesmith` installed from its packed tarball, the service
// emulated in-process by `tunesmith/emulator`, no account, no network, no Rust.
import { afterEach, beforeEach, expect, test } from "vitest";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { Client, parseCallback } from "tunesmith";
import { createEmulator } from "tunesmith/emulator";

let emulator;
let stages;

beforeEach(async () => {
  stages = [];
  emulator = await createEmulator({
    apiKey: "test-key",
    onCallback: (url, body) => {
      stages.push(parseCallback(body).stage);
      return 200;
    },
  });
});

afterEach(() => emulator.close());

const clientOf = (emu) =>
  new Client({ apiKey: "test-key", fetch: emu.fetch, baseUrl: emu.musicUrl, uploadUrl: emu.uploadUrl });

async function addInstrumental(client, callBackUrl) {
  const hum = await readFile(new URL("hum.wav", import.meta.url));
  const file = await client.uploadFile(new File([hum], "hum.wav", { type: "audio/wav" }));
  return client.addInstrumental({
    uploadUrl: file.downloadUrl, title: "Night drive", tags: "synthwave", negativeTags: "metal", callBackUrl,
  });
}

test("addInstrumental of an uploaded WAV runs to complete on the manual clock, callbacks to onCallback", async () => {
  const client = clientOf(emulator);
  const { taskId } = await addInstrumental(client, "https://app.example/callbacks");
  expect((await client.getTask({ taskId })).state).toBe("pending");
  await emulator.advance(60_000);
  const task = await client.getTask({ taskId });
  expect(task.state).toBe("succeeded");
  expect(task.tracks).toHaveLength(2);
  expect(stages).toEqual(["text", "first", "complete"]);
  const audio = await emulator.fetch(task.tracks[0].audioUrl);
  expect(new TextDecoder().decode((await audio.arrayBuffer()).slice(0, 4))).toBe("RIFF");
});

test("a receiver that fails is retried when the clock reaches the retry", async () => {
  let calls = 0;
  const flaky = await createEmulator({ apiKey: "test-key", onCallback: () => (++calls === 1 ? 500 : 200) });
  try {
    const client = clientOf(flaky);
    await addInstrumental(client, "https://app.example/callbacks");
    await flaky.advance(60_000);
    const before = calls;
    await flaky.advance(60_000);
    expect(calls).toBeGreaterThan(before);
  } finally {
    await flaky.close();
  }
});

test("without onCallback, callbacks are POSTed to a real URL", async () => {
  const received = [];
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    received.push(parseCallback(Buffer.concat(chunks)).stage);
    res.writeHead(200).end();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const plain = await createEmulator({ apiKey: "test-key" });
  try {
    const client = clientOf(plain);
    await addInstrumental(client, `http://127.0.0.1:${server.address().port}/cb`);
    await plain.advance(60_000);
    expect(received).toEqual(["text", "first", "complete"]);
  } finally {
    await plain.close();
    server.close();
  }
});
