// The `tunesmith` CLI against the emulator of `cargo xtask test`: piped (one JSON object per line)
// and in a real terminal (tmux: send-keys, capture-pane), the README's quickstart as it is shown,
// Ctrl-C while waiting, the key kept out of `ps`, and every documented exit code made to happen.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, request as httpRequest } from "node:http";
import { chmod, mkdir, mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
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

// ---- A failure of each kind ---------------------------------------------------------------------

/**
 * A forwarder to the emulator's music host that adds `X-Emulator-Tag: tag` to every request, so the
 * faults armed for that tag (`POST /_emulator/faults`) answer the CLI's requests: the CLI sends no
 * header of its own. The answers are the emulator's.
 */
async function tagged(fault) {
  const tag = `cli-${Math.random().toString(36).slice(2, 10)}`;
  const armed = await fetch(`${MUSIC}/_emulator/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tag, ...fault }) });
  assert.equal(armed.status, 200, await armed.text());
  const target = new URL(MUSIC);
  const proxy = createServer((req, res) => {
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host, "x-emulator-tag": tag } },
      (answer) => {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  proxy.listen(0, "127.0.0.1");
  await once(proxy, "listening");
  const sockets = new Set();
  proxy.on("connection", (c) => {
    sockets.add(c);
    c.on("close", () => sockets.delete(c));
  });
  return {
    url: `http://127.0.0.1:${proxy.address().port}`,
    tag,
    stats: async () => (await fetch(`${MUSIC}/_emulator/stats?tag=${tag}`)).json(),
    close: () => {
      for (const c of sockets) c.destroy();
      proxy.close();
    },
  };
}

/**
 * One failure of each kind the README documents, each with its exit code. `prepare` makes what the
 * case needs (a fault armed behind a tagging forwarder, a key without credits) and returns the
 * environment to run with and what to check and undo afterwards.
 */
const FAILURES = [
  { name: "an option without its value", args: ["generate", "--prompt"], code: 2, says: /--prompt needs a value/ },
  { name: "a command that does not exist", args: ["make-song"], code: 2, says: /unknown command make-song/ },
  { name: "a file that is not there", args: ["upload", "missing.wav"], code: 2, says: /cannot read missing\.wav: no such file/ },
  { name: "a request breaking a rule", args: ["generate", ...SONG, "--prompt", "x".repeat(3001)], code: 3, kind: "validation", field: "prompt" },
  { name: "a key the service refuses", env: { TUNESMITH_API_KEY: "not-the-key" }, args: ["credits"], code: 4, kind: "unauthorized" },
  { name: "no key at all", env: { TUNESMITH_API_KEY: "" }, args: ["generate", ...SONG], code: 4, kind: "unauthorized", hint: /set TUNESMITH_API_KEY/ },
  {
    name: "an account without credits",
    args: ["generate", ...SONG],
    code: 5,
    kind: "insufficient_credits",
    async prepare() {
      const spare = process.env.TUNESMITH_TEST_SPARE_KEY;
      const credits = (body) => fetch(`${MUSIC}/_emulator/credits`, { method: "POST", headers: { authorization: `Bearer ${spare}`, "content-type": "application/json" }, body: JSON.stringify(body) });
      assert.equal((await credits({ credits: 0 })).status, 200);
      return { env: { TUNESMITH_API_KEY: spare }, undo: () => credits({ credits: 10000 }) };
    },
  },
  {
    name: "a rate limit that outlasts the retries",
    args: ["generate", ...SONG],
    code: 6,
    kind: "rate_limited",
    async prepare() {
      const proxy = await tagged({ code: 430, times: 20, retryAfterMs: 10, ops: ["generate"] });
      return {
        env: { TUNESMITH_BASE_URL: proxy.url },
        // The client retried (a create refused with 430 was not done), then gave up: nothing created.
        check: async () => {
          const stats = await proxy.stats();
          assert.ok(stats.requests >= 2, JSON.stringify(stats));
          assert.equal(stats.tasksCreated, 0);
        },
        undo: proxy.close,
      };
    },
  },
  {
    name: "the service down for maintenance",
    args: ["credits"],
    code: 6,
    kind: "maintenance",
    async prepare() {
      const proxy = await tagged({ code: 455, times: 20, retryAfterMs: 10, ops: ["getCredits"] });
      return { env: { TUNESMITH_BASE_URL: proxy.url }, undo: proxy.close };
    },
  },
  { name: "no service at the URL", env: { TUNESMITH_BASE_URL: "http://127.0.0.1:9" }, args: ["credits"], code: 7, kind: "network" },
  {
    name: "a wait that runs out of time",
    args: ["generate", ...SONG, "--wait", "--timeout", "0.05"],
    code: 7,
    kind: "timeout",
    hint: /^task [0-9a-f]+ goes on; resume with: tunesmith get-task [0-9a-f]+ --wait$/,
  },
  { name: "a task that fails", args: ["generate", ...SONG, "--prompt", "emulate:SENSITIVE_WORD_ERROR", "--wait"], code: 8, kind: "task_failed" },
  { name: "a task the service does not know", args: ["status", "0123456789abcdef"], code: 1, kind: "not_found", says: /No such task/ },
];

test("every exit code the README and `tunesmith help` document is one a test here makes happen", { skip }, async () => {
  const readme = await readFile(join(dirname(fileURLToPath(import.meta.url)), "..", "..", "README.md"), "utf8");
  const start = readme.indexOf("## Terminals: `npx tunesmith`");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const inReadme = [...section.matchAll(/^\| (\d+) \| /gm)].map((m) => Number(m[1]));
  const help = execFileSync(process.execPath, [CLI, "help"]).toString();
  const codes = help.slice(help.indexOf("Exit codes:"), help.indexOf("operations:"));
  const inHelp = [...codes.matchAll(/(?:: |, |\n)(\d+) [a-z]/g)].map((m) => Number(m[1]));
  // 0: the runs that succeed; 130: the Ctrl-C tests below.
  const made = [...new Set([0, ...FAILURES.map((c) => c.code), 130])].sort((a, b) => a - b);
  assert.deepEqual(inReadme, made);
  assert.deepEqual(inHelp, made);
});

async function prepared(c) {
  const extra = c.prepare ? await c.prepare() : {};
  return { env: { ...ENV, ...c.env, ...extra.env }, check: extra.check ?? (() => {}), undo: extra.undo ?? (() => {}) };
}

for (const c of FAILURES) {
  test(`piped: exit ${c.code} on ${c.name}, with a JSON error line`, { skip }, async () => {
    const dir = await mkdtemp(join(tmpdir(), "ts-cli-"));
    const { env, check, undo } = await prepared(c);
    try {
      const { code, lines, stderr } = await run(c.args, { env, cwd: dir });
      assert.equal(code, c.code, `${JSON.stringify(lines)} ${stderr}`);
      const error = lines.at(-1);
      assert.equal(error.event, "error");
      assert.equal(error.exitCode, c.code);
      if (c.kind) assert.equal(error.kind, c.kind);
      if (c.field) assert.equal(error.field, c.field);
      if (c.says) assert.match(error.message, c.says);
      if (c.hint) assert.match(error.hint, c.hint);
      await check();
      const all = JSON.stringify(lines) + stderr;
      assert.ok(!all.includes(KEY) && !all.includes("not-the-key") && !all.includes(process.env.TUNESMITH_TEST_SPARE_KEY));
    } finally {
      await undo();
    }
  });
}

// ---- In a real terminal ------------------------------------------------------------------------

const tmuxReady = (() => {
  try {
    execFileSync("tmux", ["-V"]);
    return true;
  } catch {
    return false;
  }
})();
const inTerminal = skip || (!tmuxReady && "needs tmux");
// A tmux server of this file's own (other suites on the machine use tmux too), kept up between
// tests by a session of its own: a server whose last session closes exits, and a session asked of
// it meanwhile fails.
const SOCKET = `ts-cli-${process.pid}`;
const tmux = (...args) => execFileSync("tmux", ["-L", SOCKET, ...args]).toString();
before(() => {
  if (!inTerminal) tmux("new-session", "-d", "-s", "keep", "-x", "80", "-y", "10");
});
after(() => {
  if (!inTerminal) tmux("kill-server");
});
/** The screen, wrapped lines joined. */
const screen = (name) => tmux("capture-pane", "-p", "-J", "-t", name);
async function until(name, pattern, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const text = screen(name);
    if (pattern.test(text)) return text;
    if (Date.now() > end) throw new Error(`the terminal never showed ${pattern}:\n${text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A tmux session in `cwd` whose shell finds `tunesmith` on its PATH (a launcher as npm's bin
 * links make), with the emulator's environment exported.
 */
async function terminal(t, cwd) {
  const name = `ts-cli-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const bin = join(cwd, ".bin");
  await mkdir(bin, { recursive: true });
  await writeFile(join(bin, "tunesmith"), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
  await chmod(join(bin, "tunesmith"), 0o755);
  const env = Object.entries({ ...ENV, PATH: `${bin}:${ENV.PATH}` }).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ");
  tmux("new-session", "-d", "-s", name, "-x", "160", "-y", "40", "-c", cwd);
  t.after(() => tmux("kill-session", "-t", name));
  tmux("send-keys", "-t", name, `export ${env}; clear`, "Enter");
  let runs = 0;
  return {
    name,
    /** Types `command` on a cleared screen; resolves with the screen and the exit code once it ends. */
    async type(command, ms) {
      const mark = `exit-${++runs}`;
      tmux("send-keys", "-t", name, `clear; ${command}; echo "${mark}=$?"`, "Enter");
      const text = await until(name, new RegExp(`${mark}=\\d+`), ms);
      return { text, code: Number(text.match(new RegExp(`${mark}=(\\d+)`))[1]) };
    },
  };
}

const typed = (args) => args.map((a) => (/^[\w.:/{}-]+$/.test(a) ? a : `'${a}'`)).join(" ");
const envPrefix = (env) => Object.entries(env ?? {}).map(([k, v]) => `${k}='${v}' `).join("");

/**
 * The README's quickstart (its `cli-quickstart` sh block equals this region), typed line by line in
 * a terminal below, the id of the task the generate started in place of `<taskId>`.
 */
const QUICKSTART = String.raw`
// README:cli-quickstart:start
tunesmith credits
tunesmith generate --prompt "lo-fi beat" --instrumental --no-custom-mode --model V4_5 --wait --out "songs/{title}-{index}.{ext}"
tunesmith status <taskId> --download
tunesmith upload hum.wav
tunesmith schema add-instrumental
// README:cli-quickstart:end
`
  .split("\n")
  .filter((line) => line && !line.startsWith("//"));

test("terminal: the README's quickstart, typed as it is shown, each line exiting 0", { skip: inTerminal }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "ts-cli-"));
  await writeFile(join(dir, "hum.wav"), Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4000, 7)]));
  const term = await terminal(t, dir);
  let taskId = null;
  const screens = [];
  for (const line of QUICKSTART) {
    const command = line.replace("<taskId>", () => taskId);
    const { text, code } = await term.type(command, 60_000);
    assert.equal(code, 0, `${command}\n${text}`);
    screens.push(text);
    taskId ??= text.match(/task ([0-9a-f]+): succeeded/)?.[1] ?? null;
  }
  const [credits, generated, status, uploaded, schema] = screens;
  assert.match(credits, /^credits: \d+$/m);
  assert.ok(taskId, generated);
  assert.deepEqual((await readdir(join(dir, "songs"))).sort(), ["lo-fi beat-1.wav", "lo-fi beat-2.wav"]);
  assert.match(status, /saved lo-fi beat-1\.wav\nsaved lo-fi beat-2\.wav/);
  assert.match(uploaded, /uploading hum\.wav {2}\[#{24}\]/);
  assert.match(schema, /^ {4}"required": \[\n[\s\S]*^}\nexit-\d+=0$/m, "the schemas, as JSON (their start scrolled off)");
  assert.ok(!screens.join("").includes(KEY));
});

test("terminal: stages drawn in place, then the tracks; upload bytes as a bar", { skip: inTerminal }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "ts-cli-"));
  await writeFile(join(dir, "hum.wav"), Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(300_000, 7)]));
  const term = await terminal(t, dir);
  const up = await term.type("tunesmith upload hum.wav");
  assert.match(up.text, /uploading hum\.wav {2}\[#{24}\] {2}293 KB \/ 293 KB/);
  assert.equal(up.code, 0, up.text);
  const done = await term.type(`tunesmith generate ${typed(SONG)} --wait`, 60_000);
  // Each stage the waiter saw is ticked, in place (a stage passed between two polls is not seen).
  assert.match(done.text, /^generate {2}task [0-9a-f]+ {2}✔ created .*✔ complete {2}\d+ s$/m);
  assert.equal(done.text.match(/✔ created/g).length, 1, "one line, redrawn");
  assert.match(done.text, /task [0-9a-f]+: succeeded/);
  assert.match(done.text, /lo-fi beat {2}\d+\.\d s {2}http:\/\/127\.0\.0\.1:\d+\/files\/.*\.wav/);
  assert.equal(done.code, 0, done.text);
  assert.ok(!done.text.includes(KEY));
});

for (const c of FAILURES) {
  test(`terminal: exit ${c.code} on ${c.name}, said in words`, { skip: inTerminal }, async (t) => {
    const dir = await mkdtemp(join(tmpdir(), "ts-cli-"));
    const term = await terminal(t, dir);
    const { env, check, undo } = await prepared(c);
    try {
      const own = Object.fromEntries(Object.entries(env).filter(([k, v]) => k !== "PATH" && ENV[k] !== v));
      const { text, code } = await term.type(`${envPrefix(own)}tunesmith ${typed(c.args)}`, 60_000);
      assert.equal(code, c.code, text);
      const said = text.slice(text.indexOf("error"));
      assert.match(said, c.kind ? new RegExp(`^error \\(${c.kind}${c.field ? `, field ${c.field}` : ""}\\): `) : /^error: /, text);
      if (c.says) assert.match(said, c.says);
      if (c.hint) assert.match(said, new RegExp(c.hint.source.replace(/^\^|\$$/g, ""), "m"));
      assert.ok(!text.includes("{\"event\""), "words on a terminal, not JSON");
      await check();
    } finally {
      await undo();
    }
  });
}

test("piped: Ctrl-C stops waiting, not the task, and prints the command that resumes", { skip }, async () => {
  const dir = await mkdtemp(join(tmpdir(), "ts-cli-"));
  // The first status query is held by the emulator, so the wait is surely under way at Ctrl-C.
  const slow = await tagged({ delayMs: 20_000, times: 1, ops: ["getTask"] });
  try {
    const child = spawn(process.execPath, [CLI, "generate", ...SONG, "--wait", "--out", "songs/{title}-{index}.{ext}"], { env: { ...ENV, TUNESMITH_BASE_URL: slow.url }, cwd: dir });
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
    assert.equal(stop.resume, `tunesmith get-task ${stop.taskId} --wait --out songs/{title}-{index}.{ext}`);
    // The task went on: the resume command finishes it and saves its tracks.
    const resumed = await run(stop.resume.split(" ").slice(1), { cwd: dir });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.lines.find((l) => l.event === "result").record.state, "succeeded");
    assert.deepEqual(resumed.lines.filter((l) => l.event === "saved").map((l) => l.path), ["songs/lo-fi beat-1.wav", "songs/lo-fi beat-2.wav"]);
  } finally {
    slow.close();
  }
});

test("terminal: Ctrl-C stops waiting with exit 130 and the resume command, which finishes the task", { skip: inTerminal }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "ts-cli-"));
  const term = await terminal(t, dir);
  const slow = await tagged({ delayMs: 20_000, times: 1, ops: ["getTask"] });
  try {
    tmux("send-keys", "-t", term.name, `clear; TUNESMITH_BASE_URL=${slow.url} tunesmith generate ${typed(SONG)} --wait; echo "stopped=$?"`, "Enter");
    await until(term.name, /^generate {2}task [0-9a-f]+ {2}created/m);
    tmux("send-keys", "-t", term.name, "C-c");
    const text = await until(term.name, /stopped=\d+/);
    assert.match(text, /stopped=130/);
    const [, taskId, resume] = text.match(/stopped waiting; task ([0-9a-f]+) goes on\. Resume with:\n {2}(tunesmith get-task \1 --wait)\n/);
    const resumed = await term.type(resume, 60_000);
    assert.equal(resumed.code, 0, resumed.text);
    assert.match(resumed.text, new RegExp(`task ${taskId}: succeeded`));
  } finally {
    slow.close();
  }
});

test("the key is in no process's arguments: `ps` of a waiting CLI shows the command, not the key", { skip }, async () => {
  const slow = await tagged({ delayMs: 20_000, times: 1, ops: ["getTask"] });
  try {
    const child = spawn(process.execPath, [CLI, "generate", ...SONG, "--wait"], { env: { ...ENV, TUNESMITH_BASE_URL: slow.url } });
    let out = "";
    await new Promise((resolve) => child.stdout.on("data", (d) => (out += d).includes('"event":"created"') && resolve()));
    const ps = execFileSync("ps", ["-o", "args=", "-p", String(child.pid)]).toString();
    assert.match(ps, /tunesmith\.js generate --prompt lo-fi beat/, "ps sees the process");
    assert.ok(!ps.includes(KEY), ps);
    const argv = await readFile(`/proc/${child.pid}/cmdline`, "utf8");
    assert.ok(argv.includes("generate") && !argv.includes(KEY), argv);
    child.kill("SIGINT");
    assert.equal(await new Promise((r) => child.on("close", r)), 130);
    assert.ok(!out.includes(KEY));
  } finally {
    slow.close();
  }
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
