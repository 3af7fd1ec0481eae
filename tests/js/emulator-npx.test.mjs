// `tunesmith emulator` (what `npx tunesmith emulator` runs): the emulator's wasm build behind
// Node's http on two ports, with the native binary's flags and ready line; callbacks as real HTTP
// POSTs; its data folder kept across restarts; SIGTERM stops it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const PKG = process.env.TUNESMITH_PKG ?? fileURLToPath(new URL("../../pkg", import.meta.url));
const built = existsSync(join(PKG, "emulator", "tunesmith_emulator_bg.wasm"));
const skip = built ? false : `no emulator wasm in ${PKG}/emulator (cargo xtask build)`;
const { Client } = built ? await import(pathToFileURL(join(PKG, "node.js")).href) : {};
const KEY = "ts-npx-key";

/** Starts `tunesmith emulator ARGS`; resolves once it printed its ready line. */
async function start(args) {
  const child = spawn(process.execPath, [join(PKG, "cli", "tunesmith.js"), "emulator", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => { err += d; });
  const line = await new Promise((res, rej) => {
    child.stdout.on("data", (d) => {
      out += d;
      const m = /^ready music=(\S+) upload=(\S+)$/m.exec(out);
      if (m) res(m);
    });
    child.once("exit", (code) => rej(new Error(`exited ${code}: ${err}`)));
  });
  return { child, music: line[1], upload: line[2], stderr: () => err };
}

async function stop(emu) {
  emu.child.kill("SIGTERM");
  const [code] = await once(emu.child, "exit");
  return code;
}

test("the emulator on two ports: the binary's ready line, callbacks over HTTP, the data folder kept, SIGTERM stops it", { skip }, async () => {
  const data = mkdtempSync(join(tmpdir(), "emu-npx-"));
  const flags = ["--music-addr", "127.0.0.1:0", "--upload-addr", "127.0.0.1:0", "--api-key", KEY, "--stage-delay-ms", "30", "--data-dir", data, "--rate-limit", "0"];
  try {
    const first = await start(flags);
    assert.match(first.music, /^http:\/\/127\.0\.0\.1:\d+$/);
    const client = new Client({ apiKey: KEY, baseUrl: first.music, uploadUrl: first.upload });
    const inbox = `${first.music}/inbox/npx`;
    const { taskId } = await client.generate({ customMode: false, instrumental: true, model: "V4_5", prompt: "a calm piece", callBackUrl: inbox });
    const done = await client.waitForTask(taskId, { minIntervalMs: 50 });
    assert.equal(done.status, "SUCCESS");
    let items = [];
    for (let i = 0; i < 100 && items.length < 3; i++) {
      items = (await (await fetch(inbox)).json()).items;
      await new Promise((r) => setTimeout(r, 30));
    }
    assert.deepEqual(items.map((i) => i.body.data.callbackType), ["text", "first", "complete"]);
    assert.ok(!first.stderr().includes(KEY), "the key is not printed");
    assert.equal(await stop(first), 0);

    // The same folder, a new process: the task is still there.
    const second = await start(flags);
    const again = new Client({ apiKey: KEY, baseUrl: second.music, uploadUrl: second.upload });
    assert.equal((await again.getTask({ taskId })).status, "SUCCESS");
    assert.equal(await stop(second), 0);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});

test("the emulator's flags are the binary's: unknown ones refused with exit 2, --help on stdout", { skip }, async () => {
  const run = async (args) => {
    const child = spawn(process.execPath, [join(PKG, "cli", "tunesmith.js"), "emulator", ...args]);
    let out = ""; let err = "";
    child.stdout.on("data", (d) => { out += d; });
    child.stderr.on("data", (d) => { err += d; });
    const [code] = await once(child, "exit");
    return { code, out, err };
  };
  const bad = await run(["--stage-delay-ms", "soon"]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--stage-delay-ms/);
  const help = await run(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.out, /--music-addr/);
});
