// Helpers of the deploy tests (tests/deploy/*.test.mjs): each example project under tests/deploy/
// gets its own dependencies from npm (once per lockfile) and the packed tarball (every run), then
// runs as a user would run it, as a child process, against the emulator of `cargo xtask test`.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { emulator, packTarball, sh } from "../e2e/_lib.mjs";

export { freePort } from "../e2e/_lib.mjs";

export const HERE = dirname(fileURLToPath(import.meta.url));
export const SESSION = "deploy-test-session";

let packed;
/** `npm pack` of pkg/, once per test file. */
export function tarball() {
  packed ??= packTarball();
  return packed;
}

/**
 * Installs an example: `npm ci` when its lockfile changed since the last install (a stamp in its
 * node_modules), then the packed tarball, which is new at every build. Returns the folder.
 */
export async function install(example) {
  const dir = join(HERE, example);
  const lock = await readFile(join(dir, "package-lock.json"), "utf8");
  const stamp = join(dir, "node_modules", ".installed-lock");
  if ((await readFile(stamp, "utf8").catch(() => "")) !== lock) {
    console.log(`installing tests/deploy/${example} (npm ci)…`);
    await sh("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: dir });
    await writeFile(stamp, lock);
  }
  const { tarball: tgz } = await tarball();
  // Not saved: the example's package.json names only its own framework.
  await sh("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefer-offline", tgz], { cwd: dir });
  return dir;
}

/** The installed package as the example's own Node would import it (`tunesmith`, `tunesmith/server`). */
export async function importFrom(dir, specifier) {
  const require = createRequire(join(dir, "package.json"));
  return import(pathToFileURL(require.resolve(specifier)).href);
}

/**
 * Starts `cmd args` in its own process group and waits until `ready` (a URL) answers anything.
 * Returns `{ output(), stop() }`; `stop` ends the whole group (wrangler's workerd, next's workers).
 */
export async function start(cmd, args, { cwd, env = {}, ready, timeoutMs = 180_000 }) {
  const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const chunks = [];
  child.stdout.on("data", (c) => chunks.push(c));
  child.stderr.on("data", (c) => chunks.push(c));
  const output = () => Buffer.concat(chunks).toString();
  const exited = once(child, "exit");
  const kill = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    kill("SIGTERM");
    const timer = setTimeout(() => kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
    // The group's other members (workerd under wrangler) may outlive its leader.
    kill("SIGKILL");
  };
  process.once("exit", () => kill("SIGKILL"));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${cmd} exited (${child.exitCode}) before answering:\n${output()}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${cmd} did not answer at ${ready} in ${timeoutMs / 1000} s:\n${output()}`);
    }
    const answered = await fetch(ready, { signal: AbortSignal.timeout(120_000) }).then(
      async (r) => (await r.arrayBuffer(), true),
      () => false,
    );
    if (answered) return { output, stop };
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The emulator to run against: the one of `cargo xtask test`, or one of our own when run alone. */
export async function service() {
  return emulator();
}

/** A short tone as a WAV file, for uploads. */
export function wavFile(name = "hum.wav") {
  const rate = 8000;
  const samples = rate / 2;
  const bytes = new Uint8Array(44 + samples * 2);
  const view = new DataView(bytes.buffer);
  const text = (o, s) => [...s].forEach((c, i) => view.setUint8(o + i, c.charCodeAt(0)));
  text(0, "RIFF"); view.setUint32(4, 36 + samples * 2, true); text(8, "WAVEfmt ");
  view.setUint32(16, 16, true); view.setUint16(20, 1, true); view.setUint16(22, 1, true);
  view.setUint32(24, rate, true); view.setUint32(28, rate * 2, true); view.setUint16(32, 2, true);
  view.setUint16(34, 16, true); text(36, "data"); view.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++) view.setInt16(44 + i * 2, Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), true);
  return new File([bytes], name, { type: "audio/wav" });
}

/**
 * What a page does with a deployed companion at `url`, checked step by step: refused without a
 * session; a bad create refused with its field before anything is spent (the package's wasm rules,
 * running in the deployed runtime); an upload streamed through; a song whose stages arrive pushed
 * over the companion's event stream. `upload: false` skips the upload.
 */
export async function companionRoundTrip(assert, tunesmith, url, { upload = true } = {}) {
  const anonymous = await fetch(`${url}/events`);
  assert.equal(anonymous.status, 401, "no session: 401");
  await anonymous.body?.cancel();

  const headers = { authorization: `Bearer ${SESSION}`, "content-type": "application/json" };
  const bad = await fetch(`${url}/music/api/v1/generate`, {
    method: "POST",
    headers,
    body: JSON.stringify({ customMode: false, instrumental: true, model: "V4_5", prompt: "" }),
  });
  const refusal = await bad.json();
  assert.equal(bad.status, 400, JSON.stringify(refusal));
  assert.equal(refusal.field, "prompt", JSON.stringify(refusal));

  const client = new tunesmith.Client({ companionUrl: url, headers: { authorization: `Bearer ${SESSION}` } });
  if (upload) {
    const file = wavFile();
    const uploaded = await client.uploadFile(file);
    assert.equal(uploaded.fileSize, file.size);
    assert.ok(uploaded.downloadUrl.startsWith("http"), uploaded.downloadUrl);
  }
  const stages = [];
  const task = await client.generate(
    { customMode: false, instrumental: true, model: "V4_5", prompt: "lo-fi beat for a deploy test" },
    { wait: { onProgress: (t) => stages.push(t.stage), timeoutMs: 90_000 } },
  );
  assert.equal(task.state, "succeeded");
  assert.equal(task.tracks.length, 2);
  assert.ok(task.tracks.every((t) => t.audioUrl.startsWith("http")), JSON.stringify(task.tracks));
  assert.equal(stages.at(-1), "complete", stages.join(","));
  return task;
}
