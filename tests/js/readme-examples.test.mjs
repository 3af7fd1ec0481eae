// Runs the README examples (tests/js/examples/*.mjs) as a user would: `import ... from "tunesmith"`
// resolves to the built package (TUNESMITH_PKG), against the emulator of `cargo xtask test`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile, copyFile, readdir, readFile } from "node:fs/promises";
import { jsBlocks } from "./readme/markdown.mjs";
import { freePort, slowEmulator } from "./companion/harness.mjs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const EXAMPLES = join(ROOT, "tests", "js", "examples");
const PKG = process.env.TUNESMITH_PKG ?? join(ROOT, "pkg");
const MUSIC = process.env.TUNESMITH_TEST_MUSIC_URL;
const UPLOAD = process.env.TUNESMITH_TEST_UPLOAD_URL;
const KEY = process.env.TUNESMITH_TEST_API_KEY;
const skip = !MUSIC || !UPLOAD ? "needs the emulator (run by cargo xtask test)" : false;

let project;

// A project folder where "tunesmith" is the built package, as after `npm install tunesmith`.
before(async () => {
  if (skip) return;
  project = await mkdtemp(join(tmpdir(), "tunesmith-readme-"));
  await mkdir(join(project, "node_modules"));
  await symlink(PKG, join(project, "node_modules", "tunesmith"), "dir");
  await writeFile(join(project, "package.json"), JSON.stringify({ type: "module", private: true }));
  for (const name of await readdir(EXAMPLES)) await copyFile(join(EXAMPLES, name), join(project, name));
  // The melody the README's quickstart tells to copy: the file that ships in the checkout.
  await copyFile(join(ROOT, "docs", "hum.wav"), join(project, "hum.wav"));
});

async function runExample(name, env = {}) {
  const { stdout } = await promisify(execFile)("node", [name], {
    cwd: project,
    timeout: 120000,
    env: { ...process.env, TUNESMITH_API_KEY: KEY, TUNESMITH_BASE_URL: MUSIC, TUNESMITH_UPLOAD_URL: UPLOAD, ...env },
  });
  return stdout.trim().split("\n");
}

test("quickstart: upload, add an instrumental, wait, list the tracks", { skip }, async () => {
  const lines = await runExample("quickstart.mjs");
  const stages = lines.filter((l) => l.startsWith("stage:")).map((l) => l.slice(7));
  assert.equal(stages.at(-1), "complete", lines.join("\n"));
  const tracks = lines.filter((l) => l.startsWith("Night drive"));
  assert.equal(tracks.length, 2, lines.join("\n"));
  assert.match(tracks[0], /^Night drive \d+(\.\d+)? https?:\/\//);
});

test("waiting: waitForTask with progress, watchTask as an async iterator", { skip }, async () => {
  const lines = await runExample("waiting.mjs");
  assert.ok(lines.includes("succeeded 2"), lines.join("\n"));
  assert.equal(lines.filter((l) => l.startsWith("play it now: http")).length, 1, lines.join("\n"));
  assert.equal(lines.at(-1), "complete 2", lines.join("\n"));
});

test("callbacks: each stage handled once, a redelivery ignored, a malformed body refused", { skip }, async () => {
  const lines = await runExample("callbacks.mjs", { PORT: String(await freePort()) });
  const stages = lines.filter((l) => / (text|first|complete) \d+$/.test(l)).map((l) => l.split(" ")[1]);
  assert.deepEqual(stages, ["text", "first", "complete"], lines.join("\n"));
  assert.equal(lines.at(-1), "redelivery 200 malformed 400");
});

test("studio: stems, their MIDI notes, a persona's song, recovered links", { skip }, async () => {
  const lines = await runExample("studio.mjs");
  assert.match(lines[0], /^\S.* \d+ notes, first pitch \d+$/, lines.join("\n"));
  assert.ok(lines.includes("succeeded 2"), lines.join("\n"));
  assert.equal(lines.at(-1), "recovered success success", lines.join("\n"));
});

test("errors: a validation error by field, busy answers in plain words", { skip }, async () => {
  const lines = await runExample("errors.mjs");
  assert.match(lines[0], /^styleWeight: /);
  assert.equal(lines[1], "Busy (maintenance) after 2 attempts: try again later.");
  assert.equal(lines[2], "Out of credits: top up, then try again.");
});

test("proxy: the client without a key, through a key-adding proxy", { skip }, async () => {
  const lines = await runExample("proxy.mjs");
  assert.match(lines.at(-1), /^credits through the proxy: \d+$/);
});

test("companion: the key on the server, every stage pushed to a client without a key", { skip }, async () => {
  // Stages 0.7 s apart, so that the first record read is the task's first state, on any machine.
  const slow = await slowEmulator(700);
  const env = { PORT: String(await freePort()), TUNESMITH_BASE_URL: slow.music, TUNESMITH_UPLOAD_URL: slow.upload };
  const lines = await runExample("companion.mjs", env).finally(() => slow.close());
  const stages = lines.filter((l) => l.startsWith("stage:")).map((l) => l.slice(7));
  // Push mode reports the record as polling does: pending first, then each pushed stage.
  assert.deepEqual(stages, ["pending", "text", "first", "complete"], lines.join("\n"));
  assert.equal(lines.at(-1), "2 tracks");
});

test("the README's companion server runs as shown: PORT and sessions are its own", { skip }, async () => {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  const block = jsBlocks(readme).find((b) => b.name === "companion-server");
  assert.ok(block, "the README has a companion-server block");
  await writeFile(join(project, "readme-companion.mjs"), block.code);
  const port = await freePort();
  const child = spawn("node", ["readme-companion.mjs"], {
    cwd: project,
    env: { ...process.env, PORT: String(port), TUNESMITH_API_KEY: KEY, TUNESMITH_BASE_URL: MUSIC, TUNESMITH_UPLOAD_URL: UPLOAD },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (c) => { stderr += c; });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  try {
    const url = `http://127.0.0.1:${port}/tunesmith/music/api/v1/generate/record-info?taskId=not-yours`;
    let answer = null;
    for (let i = 0; i < 100 && !answer; i++) {
      answer = await fetch(url, { headers: { "x-session": "s3cr3t-session-token" } }).catch(() => null);
      if (!answer) {
        if (child.exitCode !== null) assert.fail(`the README's companion exited (${child.exitCode}): ${stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    assert.ok(answer, `the README's companion never answered: ${stderr}`);
    // The session of the block's own map passes authorize (a task it never made is a 404, not a
    // 401); no session is a 401.
    assert.equal(answer.status, 404, await answer.text());
    assert.equal((await fetch(url)).status, 401);
  } finally {
    child.kill();
    await exited;
  }
});

after(async () => project && rm(project, { recursive: true, force: true }));
