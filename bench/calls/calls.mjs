// `cargo xtask bench --only calls`: what one call costs on top of the network, and where it goes.
//   1. Per call, sequential, against the emulator: `getCredits` and `getTask` of a finished music
//      task through the package, against a raw `fetch` + `JSON.parse` of the same request (goal:
//      at most 1.10x), in Node and in Chromium, in the same run. Blocks of calls alternate between
//      the two sides, so that machine load hits both alike; the figure is the median of the blocks.
//   2. Each call split into phases (before the fetch starts, the fetch, its text, after), both sides
//      through the same traced fetch, and the package's own work run back to back on a canned
//      fetch: in Chromium that work costs several times more between real requests than back to back.
//   3. CPU profiles of the same loops (Node's --cpu-prof; Chromium's profiler over CDP), with the
//      module's function names kept (TUNESMITH_NAMED_PKG: the package with the named module and the
//      unminified glue): self time per call by part (the module, the glue, fetch, the engine...)
//      for each side, and the package's heaviest functions.
// Env: TUNESMITH_TEST_MUSIC_URL, TUNESMITH_TEST_API_KEY, TUNESMITH_PKG, TUNESMITH_CHROMIUM;
// TUNESMITH_NAMED_PKG (else the shipped package is profiled, without names);
// TUNESMITH_BENCH_SMOKE=1 for one small run (bench/_lib.mjs).
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { chromium } from "playwright-core";
import { servePackagePage } from "../../tests/e2e/_lib.mjs";
import { goals, median, sized } from "../_lib.mjs";

const MUSIC = process.env.TUNESMITH_TEST_MUSIC_URL;
const KEY = process.env.TUNESMITH_TEST_API_KEY;
const PKG = process.env.TUNESMITH_PKG;
const NAMED_PKG = process.env.TUNESMITH_NAMED_PKG ?? PKG;
if (!MUSIC || !KEY || !PKG) {
  console.error("calls bench: TUNESMITH_TEST_MUSIC_URL, TUNESMITH_TEST_API_KEY and TUNESMITH_PKG are required");
  process.exit(2);
}
const BLOCKS = sized(30, 2);
const PER_BLOCK = sized(50, 5);
const WARMUP = sized(300, 5);
/** Fresh Chromium pages the per-call figures are measured in (their median is the verdict's). */
const PAGES = sized(3, 1);
const PROFILED_CALLS = sized(3000, 20);
const PHASE_ROUNDS = sized(2000, 10);
const GOAL = 1.1;
const SELF = fileURLToPath(import.meta.url);
const PROFILED_SIDES = ["getCredits, package", "getCredits, raw fetch + JSON.parse", "getTask, package", "getTask, raw fetch + JSON.parse"];

// ---- What is measured: the same four loops in Node and in the page ---------------------------------------
/** The four ways to make one call; `Client` is the package's. Runs in Node and in the page alike. */
function makeSides(Client, music, key, taskId) {
  const client = new Client({ apiKey: key, baseUrl: music, dangerouslyAllowBrowser: true, maxRetries: 0 });
  const headers = { Authorization: `Bearer ${key}` };
  const raw = async (path) => {
    const response = await fetch(music + path, { headers });
    const body = JSON.parse(await response.text());
    if (body.code !== 200) throw new Error(`raw ${path}: ${JSON.stringify(body)}`);
    return body.data;
  };
  // The same, with what the client adds around each attempt so that it can be cancelled and timed
  // out: an AbortController whose signal goes to fetch, and a timer cleared once the answer is read
  // (a finished attempt is not aborted, as in the package). The floor of any client whose requests
  // can be aborted: in Chromium, on 2026-11-26, the signal alone cost from nothing to 14% of a raw
  // call, as much as the noise between two runs on this machine.
  const guarded = async (path) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 60_000);
    try {
      const response = await fetch(music + path, { headers, signal: controller.signal });
      return JSON.parse(await response.text()).data;
    } finally {
      clearTimeout(timer);
    }
  };
  const creditsPath = "/api/v1/generate/credit";
  const taskPath = `/api/v1/generate/record-info?taskId=${encodeURIComponent(taskId)}`;
  return {
    "getCredits, package": async () => {
      if (typeof (await client.getCredits()).credits !== "number") throw new Error("getCredits: no credits");
    },
    "getCredits, raw fetch + JSON.parse": async () => {
      if (typeof (await raw(creditsPath)) !== "number") throw new Error("raw credits: no number");
    },
    "getCredits, raw + AbortController, timer": async () => {
      if (typeof (await guarded(creditsPath)) !== "number") throw new Error("guarded credits: no number");
    },
    "getTask, package": async () => {
      if ((await client.getTask({ taskId })).state !== "succeeded") throw new Error("getTask: not succeeded");
    },
    "getTask, raw fetch + JSON.parse": async () => {
      if ((await raw(taskPath)).status !== "SUCCESS") throw new Error("raw getTask: not SUCCESS");
    },
  };
}

/**
 * Where one call's wall time goes, by phase (mean µs over `rounds` sequential calls a side): before
 * the fetch starts, from the fetch to its response, reading the text, and from the text to the
 * caller's result. Both sides send through the same traced `fetch` (the global one); the raw side
 * with what the package adds around an attempt (an AbortController's signal, a timer). Also the
 * package's whole call on a canned `fetch` that answers at once, run hot (many calls in a row): its
 * own work with no network wait between calls. Runs in Node and in the page alike.
 */
async function phases(Client, music, key, rounds, validateRequest) {
  const url = `${music}/api/v1/generate/credit`;
  let started, answered, read;
  const traced = (input, init) => {
    started = performance.now();
    return fetch(input, init).then((response) => {
      answered = performance.now();
      const text = () => response.text().then((t) => ((read = performance.now()), t));
      return { status: response.status, headers: response.headers, text };
    });
  };
  const client = new Client({ apiKey: key, baseUrl: music, dangerouslyAllowBrowser: true, maxRetries: 0, fetch: traced });
  const headers = { Authorization: `Bearer ${key}` };
  const sides = {
    "raw + AbortController, timer": async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 60_000);
      try {
        const response = await traced(url, { method: "GET", headers: { ...headers }, signal: controller.signal });
        return JSON.parse(await response.text()).data;
      } finally {
        clearTimeout(timer);
      }
    },
    package: async () => (await client.getCredits()).credits,
  };
  const sums = Object.fromEntries(Object.keys(sides).map((n) => [n, [0, 0, 0, 0]]));
  for (let round = 0; round < rounds + 50; round++) {
    for (const [name, call] of Object.entries(sides)) {
      const t0 = performance.now();
      await call();
      const end = performance.now();
      if (round < 50) continue;
      const parts = [started - t0, answered - started, read - answered, end - read];
      parts.forEach((us, i) => (sums[name][i] += (us * 1000) / rounds));
    }
  }
  const canned = JSON.stringify({ code: 200, msg: "success", data: 100 });
  const instant = async () => ({ status: 200, headers: { get: () => null }, text: async () => canned });
  const offline = new Client({ apiKey: key, baseUrl: music, dangerouslyAllowBrowser: true, maxRetries: 0, fetch: instant });
  const hot = rounds * 20;
  for (let i = 0; i < hot; i++) await offline.getCredits();
  const t0 = performance.now();
  for (let i = 0; i < hot; i++) await offline.getCredits();
  const hotUs = ((performance.now() - t0) * 1000) / hot;
  // The same call after the thread sat idle for 2 ms, as it does between real requests; beside it a
  // pure-JS reference workload (objects and JSON), hot and after the same gap: how much any code pays
  // for running after idle, against what the package pays. (Chromium rounds performance.now() to
  // 100 µs, with jitter, outside cross-origin isolation: these are means over many calls.)
  const later = (ms) => new Promise((r) => setTimeout(r, ms));
  const reference = async () => {
    const list = [];
    for (let i = 0; i < 300; i++) list.push({ a: i, b: String(i) });
    await null;
    return JSON.parse(JSON.stringify(list)).length;
  };
  const timed = async (f, gap, n) => {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      if (gap) await later(gap);
      const t = performance.now();
      await f();
      sum += performance.now() - t;
    }
    return (sum * 1000) / n;
  };
  const idle = Math.max(20, rounds);
  // And two single steps every call takes, each hot and first after the gap: one synchronous call
  // into the module (`validateRequest`), and an AbortController with a timer set and cleared.
  const entry = () => validateRequest("getTask", { taskId: "t" });
  const guard = () => clearTimeout(setTimeout(() => {}, 60_000, new AbortController()));
  const afterIdle = {
    package: await timed(() => offline.getCredits(), 2, idle),
    reference: await timed(reference, 0, hot),
    referenceAfterIdle: await timed(reference, 2, idle),
    entry: await timed(entry, 0, hot),
    entryAfterIdle: await timed(entry, 2, idle),
    guard: await timed(guard, 0, hot),
    guardAfterIdle: await timed(guard, 2, idle),
  };
  return { sums, hotUs, afterIdle };
}

function printPhases(where, { sums, hotUs, afterIdle }) {
  console.log(`\n  ${where}: getCredits by phase (mean µs a call; both sides through the same traced fetch)`);
  const names = ["before the fetch starts", "fetch to its response", "reading the text", "text to the caller's result"];
  const sides = Object.keys(sums);
  console.log(`    ${"phase".padEnd(32)}${sides.map((s) => s.padStart(30)).join("")}${"package more".padStart(14)}`);
  names.forEach((name, i) => {
    const [a, b] = sides.map((s) => sums[s][i]);
    console.log(`    ${name.padEnd(32)}${[a, b].map((x) => x.toFixed(0).padStart(30)).join("")}${(b - a).toFixed(0).padStart(14)}`);
  });
  console.log(`    the package's whole call on a canned fetch, hot (no network wait between calls): ${hotUs.toFixed(1)} µs`);
  console.log(`    the same after 2 ms idle before each call: ${afterIdle.package.toFixed(0)} µs (${(afterIdle.package / hotUs).toFixed(1)}x hot)`);
  console.log(
    `    a pure-JS reference workload, hot ${afterIdle.reference.toFixed(0)} µs, after 2 ms idle ${afterIdle.referenceAfterIdle.toFixed(0)} µs ` +
      `(+${(afterIdle.referenceAfterIdle - afterIdle.reference).toFixed(0)} µs; the package +${(afterIdle.package - hotUs).toFixed(0)} µs)`,
  );
  console.log(
    `    one synchronous call into the module, hot ${afterIdle.entry.toFixed(1)} µs, first after 2 ms idle ${afterIdle.entryAfterIdle.toFixed(0)} µs; ` +
      `an AbortController and a timer, hot ${afterIdle.guard.toFixed(1)} µs, after idle ${afterIdle.guardAfterIdle.toFixed(0)} µs`,
  );
}

/** Per-call wall time (µs) of each side: median over blocks, the sides interleaved block by block. */
async function perCall(sides, { blocks, perBlock, warmup }) {
  const names = Object.keys(sides);
  for (const name of names) for (let i = 0; i < warmup; i++) await sides[name]();
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let b = 0; b < blocks; b++) {
    const order = b % 2 ? [...names].reverse() : names;
    for (const name of order) {
      const t0 = performance.now();
      for (let i = 0; i < perBlock; i++) await sides[name]();
      times[name].push(((performance.now() - t0) * 1000) / perBlock);
    }
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return Object.fromEntries(names.map((n) => [n, med(times[n])]));
}

// ---- The profile child: one side's calls under node --cpu-prof -----------------------------------------
if (process.argv[2] === "--profile-child") {
  const [, , , side, pkgDir, taskId, count] = process.argv;
  // The raw side does not load the package: its profile holds only what fetch runs.
  const { Client } = side.includes("package") ? await import(pathToFileURL(join(pkgDir, "node.js")).href) : { Client: class {} };
  const sides = makeSides(Client, MUSIC, KEY, taskId);
  for (let i = 0; i < 200; i++) await sides[side]();
  // The loop's bounds on the profile's clock (both monotonic, µs), so that start-up is left out.
  const start = process.hrtime.bigint() / 1000n;
  for (let i = 0; i < Number(count); i++) await sides[side]();
  const end = process.hrtime.bigint() / 1000n;
  console.log(JSON.stringify({ start: Number(start), end: Number(end) }));
  process.exit(0);
}

/** A finished music task of the emulator. */
async function finishedTask() {
  const headers = { Authorization: `Bearer ${KEY}`, "content-type": "application/json" };
  const created = await (
    await fetch(`${MUSIC}/api/v1/generate`, {
      method: "POST",
      headers,
      body: JSON.stringify({ customMode: false, instrumental: true, model: "V5", prompt: "calls bench", callBackUrl: "https://example.invalid/cb" }),
    })
  ).json();
  const taskId = created.data?.taskId;
  if (!taskId) throw new Error(`generate answered ${JSON.stringify(created)}`);
  for (let i = 0; i < 600; i++) {
    const record = await (await fetch(`${MUSIC}/api/v1/generate/record-info?taskId=${taskId}`, { headers })).json();
    if (record.data?.status === "SUCCESS") return taskId;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`task ${taskId} did not finish within 60 s`);
}

// ---- Profiles: self time by part ---------------------------------------------------------------------------
/**
 * The lines (0-based, `[from, to)`) of the profiled glue that came from its snippets (src/js/imports.js,
 * errors.js), which the build bundles into tunesmith.js: rolldown starts each module's code with a
 * comment naming it (`// snippets/.../imports.js`). None in a minified glue (the shipped one).
 */
async function snippetLines(glue) {
  const lines = (await readFile(glue, "utf8").catch(() => "")).split("\n");
  const ranges = [];
  lines.forEach((line, i) => {
    if (!/^\/\/ \S+\.js$|^\/\/ \S*rolldown\//.test(line)) return;
    if (ranges.length && ranges.at(-1)[1] === undefined) ranges.at(-1)[1] = i;
    if (/^\/\/ (\S*\/)?snippets\//.test(line)) ranges.push([i, undefined]);
  });
  if (ranges.length && ranges.at(-1)[1] === undefined) ranges.at(-1)[1] = lines.length;
  return ranges;
}
const SNIPPET_LINES = await snippetLines(join(NAMED_PKG, "tunesmith.js"));

/** The part of the program a profile node belongs to; `fetchWasm`: the urls of the wasm modules
 * that the raw side runs too (undici's HTTP parser, llhttp, is wasm in Node). */
function partOf({ functionName, url, lineNumber }, fetchWasm) {
  if (functionName === "(garbage collector)") return "engine: garbage collector";
  if (functionName === "(program)") return "engine: (program) (compiler, runtime, native code)";
  if (functionName === "(idle)") return "idle (waiting for the network)";
  if (functionName === "(root)") return "idle (waiting for the network)";
  if (/^(js-to-wasm|wasm-to-js)/.test(functionName)) return "calls across the wasm boundary (wrappers)";
  if (fetchWasm.has(url)) return "fetch (undici, streams)";
  if (url.startsWith("wasm://") || url.endsWith(".wasm")) return "the module (wasm)";
  if (/\/tunesmith\.js$/.test(url)) {
    const snippet = SNIPPET_LINES.some(([from, to]) => lineNumber >= from && lineNumber < to);
    return snippet ? "the glue's snippets (errors.js, imports.js, bundled into tunesmith.js)" : "the glue (tunesmith.js)";
  }
  if (/\/(api|index|node)\.js$/.test(url)) return "the package's entry (api.js)";
  if (/undici|internal\/deps\/|internal\/fetch|internal\/webstreams|node:internal\/streams/.test(url)) return "fetch (undici, streams)";
  if (/calls\.mjs$|pptr:|__playwright|evaluate/.test(url) || url === "") {
    return /^(JSON\.parse|parse|stringify)$/.test(functionName) ? "JSON (engine builtins)" : "builtins and the bench loop";
  }
  if (url.startsWith("node:") || url.startsWith("internal/")) return "node internals (timers, promises, net)";
  return "other";
}

/** Self time (µs per call) by part, and the package's heaviest functions, from a .cpuprofile;
 * only the samples within `window` (µs on the profile's clock) when given. */
function selfTimes(profile, calls, window, fetchWasm) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += deltas[i] ?? 0;
    // Each sample stands for the time until the next one.
    const lasts = deltas[i + 1] ?? 0;
    if (window && (at < window.start || at > window.end)) continue;
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + lasts);
  }
  const parts = new Map();
  const functions = new Map();
  for (const [id, us] of self) {
    const node = byId.get(id);
    const part = partOf(node.callFrame, fetchWasm);
    parts.set(part, (parts.get(part) ?? 0) + us / calls);
    if (/module|glue|entry/.test(part)) {
      const { functionName, lineNumber, columnNumber } = node.callFrame;
      const where = functionName ? "" : ` at ${lineNumber + 1}:${columnNumber + 1}`;
      const name = `${functionName || "(anonymous)"}${where} [${part.replace(/^the /, "").replace(/ \(.*/, "")}]`;
      functions.set(name, (functions.get(name) ?? 0) + us / calls);
    }
  }
  return { parts, functions };
}

/** Each side's self times; wasm that the raw sides run too is fetch's, not the package's. */
function attribute(raw) {
  const fetchWasm = new Set();
  for (const [side, { profile }] of Object.entries(raw)) {
    if (side.includes("raw")) for (const n of profile.nodes) if (n.callFrame.url.startsWith("wasm://")) fetchWasm.add(n.callFrame.url);
  }
  return Object.fromEntries(Object.entries(raw).map(([side, { profile, window }]) => [side, selfTimes(profile, PROFILED_CALLS, window, fetchWasm)]));
}

const SHORT = (side) => side.replace(", package", " pkg").replace(", raw fetch + JSON.parse", " raw");

function printProfiles(where, profiles) {
  const sides = Object.keys(profiles);
  const parts = [...new Set(sides.flatMap((s) => [...profiles[s].parts.keys()]))].sort();
  const row = (label, cells) => console.log(`    ${label.padEnd(52)}${cells.map((c) => String(c).padStart(16)).join("")}`);
  console.log(`\n  ${where}: self time per call by part (µs; sampled every 100 µs, ${PROFILED_CALLS} calls a side)`);
  row("part", sides.map(SHORT));
  for (const part of parts) row(part, sides.map((s) => (profiles[s].parts.get(part) ?? 0).toFixed(1)));
  const busy = (s) => [...profiles[s].parts].filter(([p]) => !p.startsWith("idle")).reduce((n, [, us]) => n + us, 0);
  row("busy (all but idle)", sides.map((s) => busy(s).toFixed(1)));
  row("total (wall time per call)", sides.map((s) => [...profiles[s].parts.values()].reduce((n, us) => n + us, 0).toFixed(1)));
  for (const s of sides.filter((s) => s.includes("package"))) {
    const top = [...profiles[s].functions].sort((a, b) => b[1] - a[1]).slice(0, 12);
    console.log(`    heaviest functions of the package, ${s} (µs per call, self):`);
    for (const [name, us] of top) console.log(`      ${us.toFixed(2).padStart(7)}  ${name}`);
  }
}

async function nodeProfiles(taskId) {
  const dir = await mkdtemp(join(tmpdir(), "tunesmith-calls-prof-"));
  const raw = {};
  try {
    for (const side of PROFILED_SIDES) {
      const out = join(dir, side.replace(/\W+/g, "-"));
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--cpu-prof", "--cpu-prof-interval", "100", "--cpu-prof-dir", out, SELF, "--profile-child", side, NAMED_PKG, taskId, String(PROFILED_CALLS)],
        { env: process.env, maxBuffer: 16 * 1024 * 1024 },
      );
      const [file] = await readdir(out);
      const window = JSON.parse(stdout.trim().split("\n").pop());
      raw[side] = { profile: JSON.parse(await readFile(join(out, file), "utf8")), window };
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return attribute(raw);
}

async function chromiumProfiles(browser, taskId) {
  const site = await servePackagePage(NAMED_PKG, "<!doctype html><title>calls profile</title>");
  const page = await browser.newPage();
  const raw = {};
  try {
    await page.goto(site.url + "/");
    await page.evaluate(
      async ({ music, key, taskId, makeSidesSource }) => {
        const { Client } = await import("/pkg/index.js");
        window.sides = new Function(`return (${makeSidesSource})`)()(Client, music, key, taskId);
        for (const side of Object.values(window.sides)) for (let i = 0; i < 200; i++) await side();
      },
      { music: MUSIC, key: KEY, taskId, makeSidesSource: makeSides.toString() },
    );
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    for (const side of PROFILED_SIDES) {
      await cdp.send("Profiler.start");
      await page.evaluate(
        async ({ side, count }) => {
          for (let i = 0; i < count; i++) await window.sides[side]();
        },
        { side, count: PROFILED_CALLS },
      );
      const { profile } = await cdp.send("Profiler.stop");
      raw[side] = { profile, window: null };
    }
  } finally {
    await page.close();
    await site.close();
  }
  return attribute(raw);
}

// ---- The run -------------------------------------------------------------------------------------------------
const taskId = await finishedTask();
const verdicts = goals();
const report = (where, times) => {
  console.log(`\n  ${where}: µs per sequential call (median of ${BLOCKS} blocks of ${PER_BLOCK}, sides interleaved)`);
  for (const [name, us] of Object.entries(times)) console.log(`    ${name.padEnd(48)} ${us.toFixed(0).padStart(8)}`);
  const guard = times["getCredits, raw + AbortController, timer"] - times["getCredits, raw fetch + JSON.parse"];
  const rest = times["getCredits, package"] - times["getCredits, raw + AbortController, timer"];
  const floor = times["getCredits, package"] / times["getCredits, raw + AbortController, timer"];
  console.log(`    raw fetch's cost of an AbortController, its signal in fetch and a timer: ${guard.toFixed(0)} µs; the package against that: ${rest.toFixed(0)} µs (${floor.toFixed(2)}x)`);
  for (const op of ["getCredits", "getTask"]) {
    const ratio = times[`${op}, package`] / times[`${op}, raw fetch + JSON.parse`];
    const extra = times[`${op}, package`] - times[`${op}, raw fetch + JSON.parse`];
    console.log(`    ${`${op}: package / raw`.padEnd(40)} ${ratio.toFixed(2).padStart(7)}x  (${extra.toFixed(0)} µs more; goal <= ${GOAL}x)`);
    verdicts.check(`${where}: ${op} within ${GOAL}x of raw fetch + JSON.parse`, ratio <= GOAL);
  }
};
console.log(`calls: a finished music task ${taskId}, the emulator at ${MUSIC}`);

const { Client } = await import(pathToFileURL(join(PKG, "node.js")).href);
// In Node the package sends through undici's pool (node.js, server/upstream.js), not the global fetch:
// the same transport, raw, shows what the package itself adds on top of it.
const { upstream } = await import(pathToFileURL(join(PKG, "server", "upstream.js")).href);
const pool = upstream(undefined, "calls-bench");
const nodeSides = makeSides(Client, MUSIC, KEY, taskId);
for (const [op, path, ok] of [
  ["getCredits", "/api/v1/generate/credit", (d) => typeof d === "number"],
  ["getTask", `/api/v1/generate/record-info?taskId=${encodeURIComponent(taskId)}`, (d) => d?.status === "SUCCESS"],
]) {
  nodeSides[`${op}, raw on the package's Node transport`] = async () => {
    const answer = await pool.send(MUSIC + path, { method: "GET", headers: { Authorization: `Bearer ${KEY}` } });
    if (!ok(JSON.parse(await answer.text()).data)) throw new Error(`${op} on the pool: unexpected answer`);
  };
}
const nodeTimes = await perCall(nodeSides, { blocks: BLOCKS, perBlock: PER_BLOCK, warmup: WARMUP });
report(`Node ${process.version}`, nodeTimes);
const { validateRequest } = await import(pathToFileURL(join(PKG, "tunesmith.js")).href);
printPhases(`Node ${process.version}`, await phases(Client, MUSIC, KEY, PHASE_ROUNDS, validateRequest));
for (const op of ["getCredits", "getTask"]) {
  const own = nodeTimes[`${op}, package`] - nodeTimes[`${op}, raw on the package's Node transport`];
  console.log(`    ${op}: the package over its own transport, raw  ${own.toFixed(0).padStart(5)} µs more (${(nodeTimes[`${op}, package`] / nodeTimes[`${op}, raw on the package's Node transport`]).toFixed(2)}x)`);
}
await pool.close();

const browser = await chromium.launch({
  executablePath: process.env.TUNESMITH_CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const site = await servePackagePage(PKG, "<!doctype html><title>calls bench</title>");
  const page = await browser.newPage();
  try {
    await page.goto(site.url + "/");
    // In several fresh pages, one after another: one page's ratio moved by more than 0.1 between runs
    // of the same code, too much for a verdict on 1.10x. Each side's figure is its median over the
    // pages, and each page's ratios are printed.
    const runs = [];
    for (let i = 0; i < PAGES; i++) {
      const fresh = await browser.newPage();
      try {
        await fresh.goto(site.url + "/");
        runs.push(
          await fresh.evaluate(
            async ({ music, key, taskId, makeSidesSource, perCallSource, options }) => {
              const { Client } = await import("/pkg/index.js");
              const sides = new Function(`return (${makeSidesSource})`)()(Client, music, key, taskId);
              return new Function(`return (${perCallSource})`)()(sides, options);
            },
            {
              music: MUSIC, key: KEY, taskId, makeSidesSource: makeSides.toString(), perCallSource: perCall.toString(),
              options: { blocks: BLOCKS, perBlock: PER_BLOCK, warmup: WARMUP },
            },
          ),
        );
      } finally {
        await fresh.close();
      }
    }
    const times = Object.fromEntries(Object.keys(runs[0]).map((side) => [side, median(runs.map((r) => r[side]))]));
    report(`Chromium ${browser.version()} (the median of ${PAGES} pages)`, times);
    for (const op of ["getCredits", "getTask"]) {
      const each = runs.map((r) => (r[`${op}, package`] / r[`${op}, raw fetch + JSON.parse`]).toFixed(2) + "x");
      console.log(`    ${op}: package / raw in each page: ${each.join(", ")}`);
    }
    const split = await page.evaluate(
      async ({ music, key, phasesSource, rounds }) => {
        const { Client } = await import("/pkg/index.js");
        const { validateRequest } = await import("/pkg/tunesmith.js");
        return new Function(`return (${phasesSource})`)()(Client, music, key, rounds, validateRequest);
      },
      { music: MUSIC, key: KEY, phasesSource: phases.toString(), rounds: PHASE_ROUNDS },
    );
    printPhases(`Chromium ${browser.version()}`, split);
  } finally {
    await page.close();
    await site.close();
  }
  console.log(`\ncalls: where the time goes${NAMED_PKG === PKG ? " (shipped package: the module's functions are unnamed)" : " (the package with the module's names kept)"}`);
  printProfiles(`Node ${process.version}`, await nodeProfiles(taskId));
  printProfiles(`Chromium ${browser.version()}`, await chromiumProfiles(browser, taskId));
} finally {
  await browser.close();
}
verdicts.print();
process.exit(0);
