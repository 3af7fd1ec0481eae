// `cargo xtask bench --only emulator`: the emulator in the npm package (its wasm build) against the
// native binary, in the same run, on the same machine:
//   1. queries per second through `tunesmith emulator` (what `npx tunesmith emulator` runs), a
//      finished task's getTask with wrk, against the native emulator (goal: at least 0.5x);
//   2. one getTask through `emulator.fetch` in-process, with the package's Client, against the
//      same Client over loopback to the native emulator (goal: at most 1.0x the time), sequential,
//      blocks of calls alternating between the sides, the median of the blocks;
//   3. rendering one track's media (its first download, which makes it), ms per second of audio
//      (tracks differ in length), in-process against the native emulator (goal: at most 2x);
//   4. `createEmulator` to its first answer in a fresh Node process, from the import of
//      `tunesmith/emulator` (goal: at most 250 ms), beside the native binary's start to its ready
//      line when TUNESMITH_BENCH_EMULATOR_BIN names it;
//   5. the subpath's size, gzipped: what `tunesmith/emulator` adds to an install (reported).
// Env: TUNESMITH_TEST_MUSIC_URL, TUNESMITH_TEST_API_KEY, TUNESMITH_PKG, TUNESMITH_BENCH_EMULATOR_BIN
// (optional); TUNESMITH_BENCH_SMOKE=1 for one small run (bench/_lib.mjs).
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { goals, median, sized } from "../_lib.mjs";

const MUSIC = process.env.TUNESMITH_TEST_MUSIC_URL;
const KEY = process.env.TUNESMITH_TEST_API_KEY;
const PKG = process.env.TUNESMITH_PKG;
if (!MUSIC || !KEY || !PKG) {
  console.error("emulator bench: TUNESMITH_TEST_MUSIC_URL, TUNESMITH_TEST_API_KEY and TUNESMITH_PKG are required");
  process.exit(2);
}
const WRK_SECONDS = sized(10, 1);
const BLOCKS = sized(30, 2);
const PER_BLOCK = sized(50, 5);
const WARMUP = sized(300, 5);
const TRACKS = sized(5, 1);
const STARTS = sized(7, 1);
const GOALS = { qps: 0.5, getTask: 1.0, render: 2.0, startMs: 250 };

const { Client } = await import(pathToFileURL(join(PKG, "node.js")).href);
const { createEmulator } = await import(pathToFileURL(join(PKG, "emulator", "index.js")).href);
const verdicts = goals();
const headers = { Authorization: `Bearer ${KEY}`, "content-type": "application/json" };
const GENERATE = { customMode: false, instrumental: true, model: "V4_5", prompt: "emulator bench", callBackUrl: "https://example.invalid/cb" };

/** Starts `tunesmith emulator ARGS` as `npx` would; resolves with its URLs once it is ready. */
async function startNpx(args) {
  const child = spawn(process.execPath, [join(PKG, "cli", "tunesmith.js"), "emulator", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const [, music, upload] = await new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      const m = /^ready music=(\S+) upload=(\S+)$/m.exec(out);
      if (m) resolve(m);
    });
    child.once("exit", (code) => reject(new Error(`tunesmith emulator exited (${code}) before its ready line: ${err}`)));
  });
  return {
    music,
    upload,
    async stop() {
      child.kill("SIGTERM");
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

/** A finished music task of the emulator at `music`, over HTTP. */
async function finishedTask(music) {
  const created = await (await fetch(`${music}/api/v1/generate`, { method: "POST", headers, body: JSON.stringify(GENERATE) })).json();
  const taskId = created.data?.taskId;
  if (!taskId) throw new Error(`generate at ${music} answered ${JSON.stringify(created)}`);
  for (let i = 0; i < 600; i++) {
    const record = await (await fetch(`${music}/api/v1/generate/record-info?taskId=${taskId}`, { headers })).json();
    if (record.data?.status === "SUCCESS") return record.data;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`task ${taskId} at ${music} did not finish within 30 s`);
}

// ---- 1. Queries per second through `tunesmith emulator`, against the native binary -----------------------
async function wrk(url) {
  const { stdout } = await promisify(execFile)("wrk", ["-t1", "-c16", `-d${WRK_SECONDS}s`, "-H", `Authorization: Bearer ${KEY}`, url]);
  const rps = Number(stdout.match(/Requests\/sec:\s+([\d.]+)/)?.[1]);
  if (!rps || /Non-2xx/.test(stdout)) throw new Error(`wrk on ${url}:\n${stdout}`);
  return rps;
}

const npx = await startNpx([
  "--music-addr", "127.0.0.1:0", "--upload-addr", "127.0.0.1:0", "--rate-limit", "0", "--api-key", KEY,
  "--stage-delay-ms", "100", "--credits", "10000000",
]);
try {
  const query = async (music) => `${music}/api/v1/generate/record-info?taskId=${(await finishedTask(music)).taskId}`;
  const [nativeUrl, npxUrl] = [await query(MUSIC), await query(npx.music)];
  // Alternating, so that load from elsewhere on the machine hits both sides alike.
  const rates = { native: [], npx: [] };
  for (let round = 0; round < sized(2, 1); round++) {
    rates.native.push(await wrk(nativeUrl));
    rates.npx.push(await wrk(npxUrl));
  }
  const [native, viaNpx] = [median(rates.native), median(rates.npx)];
  const ratio = viaNpx / native;
  console.log(`\n  1. getTask queries per second (wrk, 1 thread, 16 connections, ${WRK_SECONDS} s)`);
  console.log(`    native emulator                ${native.toFixed(0).padStart(8)}`);
  console.log(`    npx tunesmith emulator (wasm)  ${viaNpx.toFixed(0).padStart(8)}   ${ratio.toFixed(2)}x native (goal >= ${GOALS.qps}x)`);
  verdicts.check(`queries per second through npx tunesmith emulator >= ${GOALS.qps}x native (${ratio.toFixed(2)}x)`, ratio >= GOALS.qps);
} finally {
  await npx.stop();
}

// ---- 2. An in-process getTask against the native emulator over loopback ---------------------------------
{
  const emulator = await createEmulator({ apiKey: KEY, rateLimit: 0, onCallback: () => 200 });
  try {
    const inProcess = new Client({ apiKey: KEY, fetch: emulator.fetch, baseUrl: emulator.musicUrl, uploadUrl: emulator.uploadUrl, maxRetries: 0 });
    const { taskId: localTask } = await inProcess.generate(GENERATE);
    await emulator.advance(60_000);
    const overLoopback = new Client({ apiKey: KEY, baseUrl: MUSIC, maxRetries: 0 });
    const nativeTask = (await finishedTask(MUSIC)).taskId;
    const sides = {
      "in-process, emulator.fetch": async () => {
        if ((await inProcess.getTask({ taskId: localTask })).state !== "succeeded") throw new Error("in-process getTask: not succeeded");
      },
      "native emulator over loopback": async () => {
        if ((await overLoopback.getTask({ taskId: nativeTask })).state !== "succeeded") throw new Error("native getTask: not succeeded");
      },
    };
    const names = Object.keys(sides);
    for (const name of names) for (let i = 0; i < WARMUP; i++) await sides[name]();
    const times = Object.fromEntries(names.map((n) => [n, []]));
    for (let b = 0; b < BLOCKS; b++) {
      for (const name of b % 2 ? [...names].reverse() : names) {
        const t0 = performance.now();
        for (let i = 0; i < PER_BLOCK; i++) await sides[name]();
        times[name].push(((performance.now() - t0) * 1000) / PER_BLOCK);
      }
    }
    const [local, native] = names.map((n) => median(times[n]));
    const ratio = local / native;
    console.log(`\n  2. one getTask with the package's Client, µs (median of ${BLOCKS} blocks of ${PER_BLOCK}, sides interleaved)`);
    console.log(`    native emulator over loopback  ${native.toFixed(0).padStart(8)}`);
    console.log(`    in-process, emulator.fetch     ${local.toFixed(0).padStart(8)}   ${ratio.toFixed(2)}x native (goal <= ${GOALS.getTask}x)`);
    verdicts.check(`an in-process getTask <= ${GOALS.getTask}x the native over loopback (${ratio.toFixed(2)}x)`, ratio <= GOALS.getTask);

    // ---- 3. Rendering one track's media ------------------------------------------------------------------
    // A fresh task's first download makes its audio; ms per second of audio, since lengths differ.
    const render = async (send, audioUrl, seconds) => {
      const t0 = performance.now();
      const res = await send(audioUrl);
      const bytes = (await res.arrayBuffer()).byteLength;
      if (res.status !== 200 || bytes < 44) throw new Error(`${audioUrl} answered ${res.status} (${bytes} B)`);
      return (performance.now() - t0) / seconds;
    };
    const perSecond = { native: [], inProcess: [] };
    for (let i = 0; i < TRACKS; i++) {
      const remote = (await finishedTask(MUSIC)).response.sunoData[0];
      perSecond.native.push(await render((u) => fetch(u), remote.audioUrl, remote.duration));
      const { taskId } = await inProcess.generate(GENERATE);
      await emulator.advance(60_000);
      const track = (await inProcess.getTask({ taskId })).tracks[0];
      perSecond.inProcess.push(await render(emulator.fetch, track.audioUrl, track.duration));
    }
    const [n, w] = [median(perSecond.native), median(perSecond.inProcess)];
    console.log(`\n  3. rendering a track's media (its first download), ms per second of audio (median of ${TRACKS} tracks)`);
    console.log(`    native emulator                ${n.toFixed(2).padStart(8)}`);
    console.log(`    in-process (wasm)              ${w.toFixed(2).padStart(8)}   ${(w / n).toFixed(2)}x native (goal <= ${GOALS.render}x)`);
    verdicts.check(`rendering one track's media <= ${GOALS.render}x native (${(w / n).toFixed(2)}x)`, w / n <= GOALS.render);
  } finally {
    await emulator.close();
  }
}

// ---- 4. createEmulator to its first answer, in a fresh Node process -------------------------------------
{
  const child = `
    const t0 = performance.now();
    const { createEmulator } = await import(${JSON.stringify(pathToFileURL(join(PKG, "emulator", "index.js")).href)});
    const emulator = await createEmulator({ apiKey: "k" });
    const res = await emulator.fetch(emulator.musicUrl + "/api/v1/generate/credit", { headers: { authorization: "Bearer k" } });
    if ((await res.json()).code !== 200) throw new Error("no answer");
    console.log(performance.now() - t0);
    await emulator.close();`;
  const starts = [];
  for (let i = 0; i < STARTS; i++) {
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", child]);
    starts.push(Number(stdout.trim()));
  }
  const ms = median(starts);
  console.log(`\n  4. import of tunesmith/emulator + createEmulator + its first answer, fresh Node ${process.version} (median of ${STARTS})`);
  console.log(`    in-process                     ${ms.toFixed(0).padStart(8)} ms (goal <= ${GOALS.startMs} ms)`);
  const bin = process.env.TUNESMITH_BENCH_EMULATOR_BIN;
  if (bin) {
    const native = [];
    for (let i = 0; i < STARTS; i++) {
      const t0 = performance.now();
      const proc = spawn(bin, ["--music-addr", "127.0.0.1:0", "--upload-addr", "127.0.0.1:0", "--api-key", "k"], { stdio: ["ignore", "pipe", "ignore"] });
      let out = "";
      const [, music] = await new Promise((resolve, reject) => {
        proc.stdout.on("data", (d) => {
          out += d;
          const m = /^ready music=(\S+)/m.exec(out);
          if (m) resolve(m);
        });
        proc.once("exit", (code) => reject(new Error(`the native emulator exited (${code})`)));
      });
      await (await fetch(`${music}/api/v1/generate/credit`, { headers: { authorization: "Bearer k" } })).json();
      native.push(performance.now() - t0);
      proc.kill("SIGTERM");
      await once(proc, "exit");
    }
    console.log(`    native binary to its first answer over HTTP ${median(native).toFixed(0).padStart(5)} ms`);
  }
  verdicts.check(`createEmulator to its first answer <= ${GOALS.startMs} ms (${ms.toFixed(0)} ms)`, ms <= GOALS.startMs);
}

// ---- 5. The subpath's size ------------------------------------------------------------------------------
{
  const dir = join(PKG, "emulator");
  const files = readdirSync(dir).filter((f) => statSync(join(dir, f)).isFile());
  let raw = 0;
  let gz = 0;
  console.log("\n  5. tunesmith/emulator (the package's emulator/ folder), bytes");
  for (const f of files.sort()) {
    const bytes = readFileSync(join(dir, f));
    const packed = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gz += packed;
    console.log(`    ${f.padEnd(32)} ${String(bytes.length).padStart(10)} ${String(packed).padStart(10)} gzipped`);
  }
  console.log(`    ${"total".padEnd(32)} ${String(raw).padStart(10)} ${String(gz).padStart(10)} gzipped (reported; no goal)`);
}

console.log();
verdicts.print();
process.exit(0);
