// Runs the README examples (tests/js/examples/*.mjs) as a user would: `import ... from "tunesmith"`
// resolves to the built package (TUNESMITH_PKG), against the emulator of `cargo xtask test`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile, copyFile, readdir } from "node:fs/promises";
import { createServer } from "node:net";
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
  await writeFile(join(project, "hum.wav"), wav(2));
});

async function freePort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

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
  const lines = await runExample("companion.mjs", { PORT: String(await freePort()) });
  const stages = lines.filter((l) => l.startsWith("stage:")).map((l) => l.slice(7));
  assert.deepEqual(stages, ["text", "first", "complete"], lines.join("\n"));
  assert.equal(lines.at(-1), "2 tracks");
});

after(async () => project && rm(project, { recursive: true, force: true }));

function wav(seconds) {
  const rate = 8000;
  const n = rate * seconds;
  const buf = Buffer.alloc(44 + n * 2);
  buf.write("RIFF", 0); buf.writeUInt32LE(36 + n * 2, 4); buf.write("WAVEfmt ", 8);
  buf.writeUInt32LE(16, 16); buf.writeUInt16LE(1, 20); buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24); buf.writeUInt32LE(rate * 2, 28); buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34); buf.write("data", 36); buf.writeUInt32LE(n * 2, 40);
  for (let i = 0; i < n; i++) buf.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 330 * i) / rate)), 44 + i * 2);
  return buf;
}
