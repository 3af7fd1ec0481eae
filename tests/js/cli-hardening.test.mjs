// The `tunesmith` CLI where the service, a proxy or the user hands it something hostile or wrong:
// escape sequences in titles (run in a real pseudo-terminal, `script`), the key echoed back in an
// error, a title of `..` in --out, files already there, a task that has failed read every way,
// rate limits and their wait, misspelled options and help, and a text file given to an audio
// operation. Everything against the emulator of `cargo xtask test`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { once } from "node:events";
import { createServer, request as httpRequest } from "node:http";
import { mkdir, mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { KEY, MUSIC, PKG, UPLOAD, skip, wav } from "./companion/harness.mjs";

const CLI = join(PKG, "cli", "tunesmith.js");
const ENV = { PATH: process.env.PATH, TUNESMITH_API_KEY: KEY, TUNESMITH_BASE_URL: MUSIC, TUNESMITH_UPLOAD_URL: UPLOAD };
const SONG = ["--prompt", "lo-fi beat", "--instrumental", "--no-custom-mode", "--model", "V4_5"];
const parse = (text) => text.split("\n").filter(Boolean).map((l) => JSON.parse(l));

/** Runs the CLI piped: `{ code, stdout, lines, stderr }` (`lines`: its JSON lines). */
async function run(args, { env = ENV, cwd } = {}) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], { env, cwd });
    return { code: 0, stdout, lines: parse(stdout), stderr };
  } catch (e) {
    if (typeof e.code !== "number") throw e;
    return { code: e.code, stdout: e.stdout, lines: parse(e.stdout), stderr: e.stderr };
  }
}

const scriptReady = (() => {
  try {
    execFileSync("script", ["-q", "-c", "true", "/dev/null"]);
    return true;
  } catch {
    return false;
  }
})();
const inTerminal = skip || (!scriptReady && "needs script (util-linux)");

/**
 * Runs the CLI in a pseudo-terminal (`script`): `{ code, raw }`, `raw` every byte it wrote to the
 * terminal (stdout and stderr both), as a string.
 */
async function runInTerminal(args, { env = ENV, cwd } = {}) {
  const dir = await mkdtemp(join(tmpdir(), "ts-cli-tty-"));
  const log = join(dir, "typescript");
  const quote = (s) => `'${String(s).replace(/'/g, "'\\''")}'`;
  const command = [process.execPath, CLI, ...args].map(quote).join(" ");
  let code = 0;
  try {
    await promisify(execFile)("script", ["-q", "-e", "-c", command, log], { env: { ...env, TERM: "xterm" }, cwd });
  } catch (e) {
    if (typeof e.code !== "number") throw e;
    code = e.code;
  }
  return { code, raw: await readFile(log, "utf8") };
}

/** A music task that has run to its end; `{ taskId, record }`. */
async function finished(args) {
  const { code, lines, stderr } = await run([...args, "--wait"]);
  const taskId = lines.find((l) => l.event === "created")?.taskId;
  assert.ok(taskId, `${JSON.stringify(lines)} ${stderr}`);
  return { taskId, code, last: lines.at(-1) };
}

/**
 * A forwarder to `target` that adds `headers` to each request (the emulator's `X-Emulate-*`):
 * the answers are the emulator's.
 */
async function forwarder(target, headers) {
  const to = new URL(target);
  const proxy = createServer((req, res) => {
    const upstream = httpRequest(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host, ...headers } },
      (answer) => {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  return listen(proxy);
}

async function listen(server) {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const sockets = new Set();
  server.on("connection", (c) => {
    sockets.add(c);
    c.on("close", () => sockets.delete(c));
  });
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => {
      for (const c of sockets) c.destroy();
      server.close();
    },
  };
}

// ---- Escape sequences from the service ----------------------------------------------------------

// A title as a hostile service (or a hostile prompt's author) could write it: sets the window's
// title, clears the screen, turns the text red, a C1 CSI, and a right-to-left override.
const HOSTILE = "a\x1b]0;pwned\x07b\x1b[2Jc\x1b[31md\u009b32me\u202ef";
const RAW = [["OSC title", "\x1b]0;"], ["BEL", "\x07"], ["clear screen", "\x1b[2J"], ["CSI colour", "\x1b[31m"], ["C1 CSI", "\u009b"], ["RLO", "\u202e"]];

/**
 * A forwarder to the music host that writes `write(request)` (default HOSTILE) at the start of
 * every track title and error message of the answers: the service's strings as the CLI receives them.
 */
async function hostileService(write = () => HOSTILE) {
  const proxy = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const headers = { ...req.headers };
    delete headers.host;
    delete headers["content-length"];
    const answer = await fetch(`${MUSIC}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    let text = await answer.text();
    text = text.replace(/"(title|msg|errorMessage)":"/g, (m) => `${m}${JSON.stringify(write(req)).slice(1, -1)}`);
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(text);
  });
  return listen(proxy);
}

test("terminal: a title with escape sequences is shown with each control written out, none raw", { skip: inTerminal }, async () => {
  const { taskId } = await finished(["generate", ...SONG]);
  const service = await hostileService();
  try {
    const dir = await mkdtemp(join(tmpdir(), "ts-cli-"));
    const { code, raw } = await runInTerminal(["status", taskId, "--download"], { env: { ...ENV, TUNESMITH_BASE_URL: service.url }, cwd: dir });
    assert.equal(code, 0, raw);
    for (const [what, seq] of RAW) assert.ok(!raw.includes(seq), `${what} reached the terminal raw: ${JSON.stringify(raw)}`);
    // Every escape left is the CLI's own, erasing its progress line.
    assert.ok(raw.split("\x1b").slice(1).every((s) => s.startsWith("[2K")), JSON.stringify(raw));
    assert.match(raw, /a\\u001b\]0;pwned\\u0007b\\u001b\[2Jc\\u001b\[31md\\u009b32me\\u202ef/);
    // The saved file's name holds none of them either.
    const names = await readdir(dir);
    assert.equal(names.length, 2, names.join());
    for (const name of names) assert.ok(!/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/.test(name), JSON.stringify(name));
  } finally {
    service.close();
  }
});

test("terminal: an error message with escape sequences is shown written out", { skip: inTerminal }, async () => {
  const service = await hostileService();
  try {
    const { code, raw } = await runInTerminal(["status", "0123456789abcdef"], { env: { ...ENV, TUNESMITH_BASE_URL: service.url } });
    assert.equal(code, 1, raw);
    assert.match(raw, /^error \(not_found\): /m);
    for (const [what, seq] of RAW) assert.ok(!raw.includes(seq), `${what} reached the terminal raw: ${JSON.stringify(raw)}`);
  } finally {
    service.close();
  }
});

test("piped: JSON lines escape C1 controls and bidi overrides too, and mean the same title", { skip }, async () => {
  const { taskId } = await finished(["generate", ...SONG]);
  const service = await hostileService();
  try {
    const { code, stdout, lines } = await run(["status", taskId], { env: { ...ENV, TUNESMITH_BASE_URL: service.url } });
    assert.equal(code, 0, stdout);
    assert.ok(!/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/.test(stdout), JSON.stringify(stdout));
    assert.ok(lines.at(-1).record.tracks[0].title.startsWith(HOSTILE));
  } finally {
    service.close();
  }
});

// ---- The key, echoed back -----------------------------------------------------------------------

const b64 = (s) => Buffer.from(s).toString("base64");

/**
 * The Authorization header a request came with, echoed: as it came, upper-cased, and in Base64
 * (whole, and as a `Basic` header of `user:key` would carry it).
 */
function echo(req) {
  const auth = req.headers.authorization ?? "";
  const key = auth.replace(/^Bearer /i, "");
  return `bad header Authorization: ${auth} / ${auth.toUpperCase()} / ${b64(auth)} / Basic ${b64(`user:${key}`)} / ${encodeURIComponent(key)}`;
}

/** A service (or proxy) that answers every request with an error whose message echoes the Authorization header. */
async function echoingService() {
  const server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ code: 400, msg: echo(req), data: null }));
  });
  return listen(server);
}

const KEYS = [
  ["plain", (k) => k],
  ["upper case", (k) => k.toUpperCase()],
  ["Base64", (k) => b64(k)],
  ["Base64 after `Bearer `", (k) => b64(`Bearer ${k}`).slice(12, -4)],
  ["Base64 after `user:`", (k) => b64(`user:${k}`).slice(8, -4)],
];

/** Asserts that no spelling of `key` is in any of `outputs` (`[where, text]`). */
function assertNoKey(key, outputs) {
  for (const [where, text] of outputs) {
    for (const [spelling, form] of KEYS) {
      const f = form(key);
      assert.ok(f.length >= 8 && !text.includes(f), `${where}: the key, ${spelling} (${f}), in ${text}`);
    }
  }
}

test("the key echoed in a track title or a task's failure is printed in no spelling, piped or in a terminal", { skip }, async () => {
  const song = await finished(["generate", ...SONG]);
  const failed = await finished(["generate", ...SONG, "--prompt", "emulate:SENSITIVE_WORD_ERROR"]);
  // The emulator's answers, with the Authorization header the request came with written into
  // their titles and error messages: records, which the client hands on as they are.
  const service = await hostileService(echo);
  const env = { ...ENV, TUNESMITH_BASE_URL: service.url };
  try {
    const outputs = [];
    for (const [args, exit] of [[["status", song.taskId], 0], [["status", failed.taskId, "--wait"], 8]]) {
      const piped = await run(args, { env });
      assert.equal(piped.code, exit, piped.stdout);
      assert.match(piped.stdout, /bad header Authorization: Bearer \[redacted\] \/ BEARER \[redacted\]/);
      outputs.push([`piped ${args[0]}`, piped.stdout + piped.stderr]);
      if (!inTerminal) {
        const tty = await runInTerminal(args, { env });
        assert.equal(tty.code, exit, tty.raw);
        assert.match(tty.raw, /bad header Authorization: Bearer \[redacted\]/);
        outputs.push([`terminal ${args[0]}`, tty.raw]);
      }
    }
    assertNoKey(KEY, outputs);
  } finally {
    service.close();
  }
});

test("the key a service echoes in an error is printed in no spelling, piped or in a terminal", { skip }, async () => {
  const service = await echoingService();
  // A key of its own: the client's scrubbing of the key it sends is not what is tested here.
  const key = "sk-live-Echo123Secret";
  const env = { ...ENV, TUNESMITH_API_KEY: key, TUNESMITH_BASE_URL: service.url };
  try {
    const piped = await run(["credits"], { env });
    assert.equal(piped.code, 1, piped.stdout);
    const error = piped.lines.at(-1);
    assert.equal(error.event, "error");
    assert.match(error.message, /bad header Authorization: Bearer \[redacted\]/);
    const outputs = [["piped", piped.stdout + piped.stderr]];
    if (!inTerminal) outputs.push(["terminal", (await runInTerminal(["credits"], { env })).raw]);
    assertNoKey(key, outputs);
  } finally {
    service.close();
  }
});

// ---- Rate limits and maintenance: the wait, in words --------------------------------------------

const RATE_LIMITS = [
  // The music host's own rate limit (430), beyond what the client waits for.
  { name: "the music host's rate limit", args: ["credits"], via: "music", headers: { "x-emulate-code": "430", "x-emulate-retry-after": "120" }, says: /^rate limited: try again in 2 min$/, seconds: 120 },
  // The upload host's (429 there), as the companion's own 429 `rate_limited` reads to the client.
  { name: "the upload host's 429", args: ["upload", "hum.wav"], via: "upload", headers: { "x-emulate-code": "429", "x-emulate-retry-after": "90" }, says: /^rate limited: try again in 90 s$/, seconds: 90 },
  { name: "maintenance", args: ["credits"], via: "music", headers: { "x-emulate-code": "455", "x-emulate-retry-after": "300" }, says: /^the service is down for maintenance: try again in 5 min$/, seconds: 300 },
];

for (const c of RATE_LIMITS) {
  test(`exit 6 on ${c.name}, with the wait it asked for`, { skip }, async () => {
    const dir = await mkdtemp(join(tmpdir(), "ts-cli-"));
    await writeFile(join(dir, "hum.wav"), wav(1));
    const proxy = await forwarder(c.via === "music" ? MUSIC : UPLOAD, c.headers);
    const env = { ...ENV, [c.via === "music" ? "TUNESMITH_BASE_URL" : "TUNESMITH_UPLOAD_URL"]: proxy.url };
    try {
      const { code, lines, stderr } = await run(c.args, { env, cwd: dir });
      assert.equal(code, 6, `${JSON.stringify(lines)} ${stderr}`);
      const error = lines.at(-1);
      assert.notEqual(error.kind, "insufficient_credits");
      assert.match(error.hint, c.says);
      assert.equal(error.retryAfterSeconds, c.seconds);
      if (!inTerminal) {
        const { code: ttyCode, raw } = await runInTerminal(c.args, { env, cwd: dir });
        assert.equal(ttyCode, 6, raw);
        assert.match(raw.replace(/\r/g, ""), new RegExp(c.says.source.replace(/^\^|\$$/g, ""), "m"));
      }
    } finally {
      proxy.close();
    }
  });
}

// ---- --out: names made of dots, files already there ----------------------------------------------

test("--out: a title of `..` saves into `_`, not one folder up", { skip }, async () => {
  const { taskId } = await finished(["generate", "--custom-mode", "--title", "..", "--style", "lo-fi", "--instrumental", "--model", "V4_5"]);
  const dir = await mkdtemp(join(tmpdir(), "ts-cli-"));
  await mkdir(join(dir, "work"));
  const { code, lines, stderr } = await run(["status", taskId, "--out", "{title}/{index}.{ext}"], { cwd: join(dir, "work") });
  assert.equal(code, 0, stderr);
  assert.deepEqual(lines.filter((l) => l.event === "saved").map((l) => l.path), ["_/1.wav", "_/2.wav"]);
  assert.deepEqual(await readdir(dir), ["work"], "nothing written one folder up");
  assert.deepEqual((await readdir(join(dir, "work", "_"))).sort(), ["1.wav", "2.wav"]);
});

test("--out: an existing file is kept and the command fails, unless --force", { skip }, async () => {
  const { taskId } = await finished(["generate", ...SONG]);
  const dir = await mkdtemp(join(tmpdir(), "ts-cli-"));
  await writeFile(join(dir, "lo-fi beat-2.wav"), "mine");
  const kept = await run(["status", taskId, "--download"], { cwd: dir });
  assert.equal(kept.code, 1, kept.stdout);
  const error = kept.lines.at(-1);
  assert.equal(error.kind, "file_exists");
  assert.match(error.message, /^lo-fi beat-2\.wav exists: not overwritten \(--force replaces it\)$/);
  assert.equal(error.hint, `save them with: tunesmith get-task ${taskId} --out {title}-{index}.{ext} --force`);
  assert.equal(await readFile(join(dir, "lo-fi beat-2.wav"), "utf8"), "mine");
  assert.deepEqual(await readdir(dir), ["lo-fi beat-2.wav"], "nothing saved before the refusal");

  // Two files to one name: the second would overwrite the first.
  const same = await run(["status", taskId, "--out", "one.{ext}"], { cwd: dir });
  assert.equal(same.code, 1, same.stdout);
  assert.match(same.lines.at(-1).message, /^one\.wav exists/);

  const forced = await run(["status", taskId, "--download", "--force"], { cwd: dir });
  assert.equal(forced.code, 0, forced.stderr);
  assert.equal((await readFile(join(dir, "lo-fi beat-2.wav"))).subarray(0, 4).toString(), "RIFF");
});

// ---- A failed task exits 8, however it is read ----------------------------------------------------

/** Each way of reading a task that has failed (`id`: its id), each exiting 8 with the task's failure. */
const FAILED_TASK_READS = [
  { name: "generate --wait", start: "music", args: () => ["generate", ...SONG, "--prompt", "emulate:SENSITIVE_WORD_ERROR", "--wait"] },
  { name: "status <id>", start: "music", args: (id) => ["status", id] },
  { name: "status <id> --wait", start: "music", args: (id) => ["status", id, "--wait"] },
  { name: "status <id> --download", start: "music", args: (id) => ["status", id, "--download"] },
  { name: "get-task <id> --out", start: "music", args: (id) => ["get-task", id, "--out", "x/{index}.{ext}"] },
  { name: "generate-lyrics --wait", start: "lyrics", args: () => ["generate-lyrics", "--prompt", "emulate:failed", "--wait"] },
  { name: "get-lyrics <id> --wait", start: "lyrics", args: (id) => ["get-lyrics", id, "--wait"] },
  { name: "get-lyrics <id>", start: "lyrics", args: (id) => ["get-lyrics", id] },
];

test("a task that has failed exits 8 on every command that reads it, with the failure's words", { skip }, async () => {
  const failed = {
    music: await finished(["generate", ...SONG, "--prompt", "emulate:SENSITIVE_WORD_ERROR"]),
    lyrics: await finished(["generate-lyrics", "--prompt", "emulate:failed"]),
  };
  for (const f of Object.values(failed)) assert.equal(f.code, 8);
  const dir = await mkdtemp(join(tmpdir(), "ts-cli-"));
  const results = [];
  for (const c of FAILED_TASK_READS) {
    const { code, lines, stderr } = await run(c.args(failed[c.start].taskId), { cwd: dir });
    const error = lines.at(-1);
    results.push({ name: c.name, code, kind: error?.kind, saved: lines.some((l) => l.event === "saved"), out: `${JSON.stringify(lines)} ${stderr}` });
  }
  for (const r of results) {
    assert.deepEqual({ name: r.name, code: r.code, kind: r.kind, saved: r.saved }, { name: r.name, code: 8, kind: "task_failed", saved: false }, r.out);
  }
  assert.deepEqual(await readdir(dir), []);
});

// ---- Options: near misses, help -----------------------------------------------------------------

test("a misspelled option is named with the closest one, before any field is found missing", { skip }, async () => {
  const cases = [
    [["generate", "--prompt", "x", "--instrumental", "--no-custom-mode", "--modle", "V4_5"], /^--modle is not an option of generate \(did you mean --model\?\)/],
    [["generate", ...SONG, "--wiat"], /^--wiat is not an option of generate \(did you mean --wait\?\)/],
    [["generate", ...SONG, "--foo", "1"], /^--foo is not an option of generate; `tunesmith generate --help` lists them$/],
    [["generate", ...SONG, "--request", '{"callbackUrl":"https://x.example"}'], /^"callbackUrl" in --request is not a field of generate \(did you mean "callBackUrl"\?\)/],
  ];
  for (const [args, says] of cases) {
    const { code, lines } = await run(args);
    assert.equal(code, 2, JSON.stringify(lines));
    assert.match(lines.at(-1).message, says);
    assert.ok(!lines.at(-1).message.includes("extraFields"), lines.at(-1).message);
  }
});

test("help: `help generate` is generate's, whose callback URL is not required of the user", { skip }, async () => {
  const ownHelp = execFileSync(process.execPath, [CLI, "generate", "--help"], { env: ENV }).toString();
  const helpOf = execFileSync(process.execPath, [CLI, "help", "generate"], { env: ENV }).toString();
  assert.equal(helpOf, ownHelp);
  assert.match(ownHelp, /^generate: /);
  assert.match(ownHelp, /^ {2}--model +\(required\)/m);
  const callback = ownHelp.split("\n").find((l) => l.startsWith("  --call-back-url"));
  assert.ok(callback && !callback.includes("(required)"), callback);
  assert.match(callback, /TUNESMITH_CALLBACK_URL/);
  const unknown = await run(["help", "make-song"]);
  assert.equal(unknown.code, 2);
});

test("terminal: credits in words, not JSON", { skip: inTerminal }, async () => {
  const { code, raw } = await runInTerminal(["credits"]);
  assert.equal(code, 0, raw);
  assert.match(raw, /^credits: \d+\r?$/m);
  assert.ok(!raw.includes("{"), raw);
});

// ---- A file that is not audio, for an audio operation ---------------------------------------------

const credits = async () => (await run(["credits"])).lines.at(-1).record.credits;

test("an audio operation refuses a file that is not audio before the task is paid for, unless --skip-audio-check", { skip }, async () => {
  const dir = await mkdtemp(join(tmpdir(), "ts-cli-"));
  await writeFile(join(dir, "notes.txt"), "remember to buy milk\n".repeat(20));
  await writeFile(join(dir, "hum.wav"), wav(1));
  const upload = async (name) => {
    const { code, lines, stderr } = await run(["upload", name], { cwd: dir });
    assert.equal(code, 0, stderr);
    return lines.at(-1).record.downloadUrl;
  };
  const text = await upload("notes.txt");
  const audio = await upload("hum.wav");
  const instrumental = (url, ...more) => ["add-instrumental", "--upload-url", url, "--title", "t", "--tags", "lo-fi", "--negative-tags", "metal", ...more];

  const before = await credits();
  const refused = await run(instrumental(text));
  assert.equal(refused.code, 3, JSON.stringify(refused.lines));
  const error = refused.lines.at(-1);
  assert.deepEqual([error.kind, error.field, error.rule], ["validation", "uploadUrl", "audio"]);
  assert.match(error.message, /is not audio \(it starts as text\).*--skip-audio-check/);
  assert.equal(await credits(), before, "nothing paid");

  const wavOk = await run(instrumental(audio));
  assert.equal(wavOk.code, 0, JSON.stringify(wavOk.lines));
  const forced = await run(instrumental(text, "--skip-audio-check"));
  assert.equal(forced.code, 0, JSON.stringify(forced.lines));
  assert.ok(forced.lines.some((l) => l.event === "created"));
});
