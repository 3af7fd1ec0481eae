// Chaos: per-call cost against the number of calls in flight.
//
// N `getCredits` calls are started together through a `fetch` option that holds each answer in
// memory until all N are in flight, then answers them all; the CPU time of the process (user +
// system, from start to the last settled call) divided by N is the cost per call. No network is
// measured. Measured at 1,000 and at 40,000 calls in flight, median of several rounds. Goal: the
// cost at 40,000 within 2x of the cost at 1,000 (a free-list allocator once made it
// quadratic). Env: TUNESMITH_PKG; CHAOS_SCALE scales the large count (1: 40,000; at least 4,000).
import { goal, importPackage, isMain, report, scaled } from "./_lib.mjs";

const NAME = "calls-in-flight";
const ANSWER = JSON.stringify({ code: 200, msg: "success", data: 9000 });

/** One round: `n` calls in flight, then all answered. Returns µs of CPU and of wall time per call. */
async function round(Client, n) {
  const held = [];
  const fetch = () => new Promise((resolve) => held.push(resolve));
  const response = {
    status: 200,
    ok: true,
    headers: { get: (name) => (name === "x-request-id" ? "req-1" : null) },
    text: () => Promise.resolve(ANSWER),
  };
  const client = new Client({ apiKey: "k", baseUrl: "http://127.0.0.1:1", fetch, maxRetries: 0 });
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const calls = new Array(n);
  let settledEarly = 0;
  for (let i = 0; i < n; i++) {
    calls[i] = client.getCredits();
    calls[i].then(null, () => {}).finally(() => settledEarly++);
  }
  // Every call reaches fetch within a few turns; wait until all are in flight (or ended early).
  const deadline = performance.now() + 120_000;
  while (held.length + settledEarly < n && performance.now() < deadline) await new Promise((r) => setImmediate(r));
  if (held.length < n) throw new Error(`${n - held.length} of ${n} calls never reached fetch`);
  for (const resolve of held) resolve(response);
  const results = await Promise.all(calls);
  const used = process.cpuUsage(cpu);
  const wallUs = (performance.now() - wall) * 1000;
  client.free?.();
  if (results.some((r) => r.credits !== 9000)) throw new Error("a call resolved with the wrong answer");
  return { cpuUs: (used.user + used.system) / n, wallUs: wallUs / n };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round1 = (x) => Math.round(x * 10) / 10;

/** The core, exported for tests/js/chaos.test.mjs: returns `{ figures, goals }`. */
export async function run({ high = scaled(40_000, 4_000), low = Math.min(1_000, Math.floor(high / 4)), rounds = 5 } = {}) {
  const { Client } = await importPackage();
  const started = performance.now();
  await round(Client, low); // warm up: JIT, wasm memory growth
  // Rounds stop early once they have taken 90 s (a quadratic cost makes one 40,000 round minutes long).
  const measure = async (n, times) => {
    const list = [];
    const begun = performance.now();
    for (let i = 0; i < times && (i === 0 || performance.now() - begun < 90_000); i++) list.push(await round(Client, n));
    return { rounds: list.length, cpuUs: round1(median(list.map((x) => x.cpuUs))), wallUs: round1(median(list.map((x) => x.wallUs))) };
  };
  if (process.env.CHAOS_PROGRESS) console.error(`calls-in-flight: measuring ${low} and ${high}`);
  const atLow = await measure(low, rounds);
  const atHigh = await measure(high, Math.max(3, Math.ceil(rounds / 2)));
  const ratio = Math.round((atHigh.cpuUs / atLow.cpuUs) * 100) / 100;
  const figures = {
    low,
    high,
    cpuUsPerCallAtLow: atLow.cpuUs,
    cpuUsPerCallAtHigh: atHigh.cpuUs,
    wallUsPerCallAtLow: atLow.wallUs,
    wallUsPerCallAtHigh: atHigh.wallUs,
    roundsAtLow: atLow.rounds,
    roundsAtHigh: atHigh.rounds,
    ratio,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
  const goals = { costRatioHighToLow: goal(ratio, 2) };
  return { figures, goals };
}

if (isMain(import.meta.url)) {
  const { figures, goals } = await run();
  report(NAME, figures, goals);
  process.exit(process.exitCode ?? 0);
}
