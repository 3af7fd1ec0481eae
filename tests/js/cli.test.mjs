// The `tunesmith` CLI against the emulator of `cargo xtask test`: piped (one JSON object per line),
// in a real terminal (tmux: send-keys, capture-pane), Ctrl-C while waiting, and an exit code for
// each kind of failure.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync, spawn } from "node:child_process";
import { mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { KEY, MUSIC, PKG, UPLOAD, skip } from "./companion/harness.mjs";

const CLI = join(PKG, "cli", "tunesmith.js");
const ENV = { PATH: process.env.PATH, TUNESMITH_API_KEY: KEY, TUNESMITH_BASE_URL: MUSIC, TUNESMITH_UPLOAD_URL: UPLOAD };
const SONG = ["--prompt", "lo-fi beat", "--instrumental", "--no-custom-mode", "--model", "V4_5"];

/** Runs the CLI piped; resolves with `{ code, lines, stderr }` (`lines`: its JSON lines). */
async function run(args, { env = ENV, cwd } = {}) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], { env, cwd });
    return { code: 0, lines: parse(stdout), stderr };
  } catch (e) {
    if (typeof e.code !== "number") throw e;
    return { code: e.code, lines: parse(e.stdout), stderr: e.stderr };
  }
}
const parse = (text) => text.split("\n").filter(Boolean).map((l) => JSON.parse(l));

test("piped: a generate with --wait prints one JSON object per line and saves its tracks by template", { skip }, async () => {
  const dir = await mkdtemp(join(tmpdir(), "ts-cli-"));
  const { code, lines, stderr } = await run(["generate", ...SONG, "--wait", "--out", "songs/{title}-{index}.{ext}"], { cwd: dir });
  assert.equal(code, 0, stderr);
  const events = lines.map((l) => l.event);
  assert.equal(events[0], "created");
  assert.ok(events.includes("progress"));
  const result = lines.find((l) => l.event === "result");
  assert.equal(result.record.state, "succeeded");
  const saved = lines.filter((l) => l.event === "saved").map((l) => l.path);
  assert.deepEqual(saved, ["songs/lo-fi beat-1.wav", "songs/lo-fi beat-2.wav"]);
  assert.deepEqual((await readdir(join(dir, "songs"))).sort(), ["lo-fi beat-1.wav", "lo-fi beat-2.wav"]);
  const wav = await readFile(join(dir, saved[0]));
  assert.equal(wav.subarray(0, 4).toString(), "RIFF");
  assert.ok(!JSON.stringify(lines).includes(KEY) && !stderr.includes(KEY));
});

test("piped: upload, status --download, credits and schema", { skip }, async () => {
  const dir = await mkdtemp(join(tmpdir(), "ts-cli-"));
  await writeFile(join(dir, "hum.wav"), Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4000, 7)]));
  const up = await run(["upload", "hum.wav"], { cwd: dir });
  assert.equal(up.code, 0, up.stderr);
  assert.ok(up.lines.some((l) => l.event === "upload" && l.loaded === l.total));
  assert.equal(up.lines.at(-1).record.fileSize, 4004);

  const created = await run(["generate", ...SONG]);
  const taskId = created.lines.find((l) => l.event === "result").record.taskId;
  const status = await run(["status", taskId, "--download"], { cwd: dir });
  assert.equal(status.code, 0, status.stderr);
  assert.equal(status.lines.filter((l) => l.event === "saved").length, 2);

  const credits = await run(["credits"]);
  assert.equal(typeof credits.lines[0].record.credits, "number");
  const schema = JSON.parse(execFileSync(process.execPath, [CLI, "schema", "add-instrumental"], { env: ENV }).toString());
  assert.ok(schema.input.required.includes("uploadUrl"));
  assert.ok(schema.output.properties.tracks);
});

test("exit codes: one per kind of failure, each with a JSON error line naming it", { skip }, async () => {
  const cases = [
    { args: ["generate", "--bogus-mode"], code: 2 },
    { args: ["generate", "--api-key", "x"], code: 2 },
    { args: ["generate", ...SONG, "--prompt", "x".repeat(501)], code: 3, kind: "validation", field: "prompt" },
    { args: ["credits"], env: { ...ENV, TUNESMITH_API_KEY: "not-the-key" }, code: 4, kind: "unauthorized" },
    { args: ["generate", ...SONG], env: { ...ENV, TUNESMITH_API_KEY: "" }, code: 4, kind: "unauthorized" },
    { args: ["credits"], env: { ...ENV, TUNESMITH_BASE_URL: "http://127.0.0.1:9" }, code: 7, kind: "network" },
    { args: ["generate", ...SONG, "--prompt", "emulate:SENSITIVE_WORD_ERROR", "--wait"], code: 8, kind: "task_failed" },
  ];
  for (const c of cases) {
    const { code, lines, stderr } = await run(c.args, { env: c.env });
    assert.equal(code, c.code, `${c.args.join(" ")}: ${JSON.stringify(lines)} ${stderr}`);
    const error = lines.find((l) => l.event === "error");
    assert.equal(error.exitCode, c.code);
    if (c.kind) assert.equal(error.kind, c.kind);
    if (c.field) assert.equal(error.field, c.field);
    assert.ok(!JSON.stringify(lines).includes("not-the-key") && !stderr.includes(KEY));
  }
});

test("exit codes: not enough credits (5), as the service answers it", { skip }, async () => {
  const spare = process.env.TUNESMITH_TEST_SPARE_KEY;
  if (!spare) return;
  const env = { ...ENV, TUNESMITH_API_KEY: spare };
  await fetch(`${MUSIC}/_emulator/credits`, { method: "POST", headers: { authorization: `Bearer ${spare}`, "content-type": "application/json" }, body: JSON.stringify({ credits: 0 }) });
  try {
    const poor = await run(["generate", ...SONG], { env });
    assert.equal(poor.code, 5, JSON.stringify(poor.lines));
    assert.equal(poor.lines.at(-1).kind, "insufficient_credits");
  } finally {
    await fetch(`${MUSIC}/_emulator/credits`, { method: "POST", headers: { authorization: `Bearer ${spare}`, "content-type": "application/json" }, body: JSON.stringify({ credits: 10000 }) });
  }
});

// ---- In a real terminal ------------------------------------------------------------------------

const tmuxReady = (() => {
  try {
    execFileSync("tmux", ["-V"]);
    return true;
  } catch {
    return false;
  }
})();
const tmux = (...args) => execFileSync("tmux", args).toString();
const screen = (name) => tmux("capture-pane", "-p", "-t", name);
async function until(name, pattern, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const text = screen(name);
    if (pattern.test(text)) return text;
    if (Date.now() > end) throw new Error(`the terminal never showed ${pattern}:\n${text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function terminal(t, cwd) {
  const name = `ts-cli-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const env = Object.entries(ENV).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ");
  tmux("new-session", "-d", "-s", name, "-x", "160", "-y", "40", "-c", cwd);
  t.after(() => tmux("kill-session", "-t", name));
  tmux("send-keys", "-t", name, `export ${env}; alias tunesmith='${process.execPath} ${CLI}'; clear`, "Enter");
  return name;
}

test("terminal: stages drawn in place, then the tracks; upload bytes as a bar", { skip: skip || (!tmuxReady && "needs tmux") }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "ts-cli-"));
  await writeFile(join(dir, "hum.wav"), Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(300_000, 7)]));
  const name = terminal(t, dir);
  tmux("send-keys", "-t", name, `tunesmith upload hum.wav; echo "exit=$?"`, "Enter");
  const up = await until(name, /exit=\d+/);
  assert.match(up, /uploading hum\.wav {2}\[#{24}\] {2}293 KB \/ 293 KB/);
  assert.match(up, /exit=0/);
  tmux("send-keys", "-t", name, "clear", "Enter");
  tmux("send-keys", "-t", name, `tunesmith generate ${SONG.map((a) => JSON.stringify(a)).join(" ")} --wait; echo "exit=$?"`, "Enter");
  const done = await until(name, /exit=\d+/, 60_000);
  // Each stage the waiter saw is ticked, in place (a stage passed between two polls is not seen).
  assert.match(done, /^generate {2}task [0-9a-f]+ {2}✔ created .*✔ complete {2}\d+ s$/m);
  assert.equal(done.match(/✔ created/g).length, 1, "one line, redrawn");
  assert.match(done, /task [0-9a-f]+: succeeded/);
  assert.match(done, /lo-fi beat {2}\d+\.\d s {2}http:\/\/127\.0\.0\.1:\d+\/files\/.*\.wav/);
  assert.match(done, /exit=0/);
  assert.ok(!done.includes(KEY));
});

test("Ctrl-C stops waiting, not the task, and prints the command that resumes", { skip }, async () => {
  const dir = await mkdtemp(join(tmpdir(), "ts-cli-"));
  const child = spawn(process.execPath, [CLI, "generate", ...SONG, "--wait", "--out", "songs/{title}.{ext}"], { env: ENV, cwd: dir });
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
    // SIGINT as a terminal's Ctrl-C sends it, as soon as the task exists.
    if (out.includes('"event":"created"') && !child.killed) child.kill("SIGINT");
  });
  const code = await new Promise((r) => child.on("close", r));
  assert.equal(code, 130, out);
  const stop = parse(out).at(-1);
  assert.equal(stop.event, "interrupted");
  assert.equal(stop.resume, `tunesmith get-task ${stop.taskId} --wait --out songs/{title}.{ext}`);
  // The task went on: the resume command finishes it and saves its tracks.
  const args = stop.resume.split(" ").slice(1).map((a) => a.replace(/^'|'$/g, ""));
  const resumed = await run(args, { cwd: dir });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(resumed.lines.find((l) => l.event === "result").record.state, "succeeded");
  assert.deepEqual(resumed.lines.filter((l) => l.event === "saved").map((l) => l.path), ["songs/lo-fi beat.wav", "songs/lo-fi beat.wav"]);
});

test("the key never reaches the command line: --api-key is refused before anything runs", { skip }, async () => {
  const child = spawn(process.execPath, [CLI, "credits", "--api-key", "secret-in-argv"], { env: ENV });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  const code = await new Promise((r) => child.on("close", r));
  assert.equal(code, 2);
  assert.match(out, /TUNESMITH_API_KEY only/);
  assert.ok(!out.includes("secret-in-argv"));
});
