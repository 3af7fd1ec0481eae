// Benchmark: 100 concurrent waitForTask calls in one Chromium page against the emulator. All must
// complete, and the queries the emulator logged must be within 5% of what the poll schedule
// prescribes (protocol/src/schedule.rs): no tight loops, no extra retries, no thundering herd.
//
// What the schedule prescribes depends on when each task finishes (its createTime plus three stage
// delays of the emulator, TUNESMITH_BENCH_STAGE_DELAY_MS, default 100 as `cargo xtask bench` starts
// it) and on the network: the waiter sleeps after each answer, so every query's round trip (measured
// in the page through the client's `fetch` option) delays the next one. The prescribed count of a
// waiter replays the schedule's nominal intervals plus those round trips until the task is done.
// Two rounds: the default schedule (1 s growing to 30 s) and a short one (250 ms to 1 s) that
// exercises the growth within the tasks' 4.5 s.
// A waiter that does not complete is a failure (exit 1); a count off the schedule is a MISS.
// Env: TUNESMITH_TEST_MUSIC_URL, TUNESMITH_TEST_API_KEY, TUNESMITH_PKG; TUNESMITH_BENCH_SMOKE=1 for
// one small run (bench/_lib.mjs).
import { chromium } from "playwright-core";
import { servePackagePage } from "../tests/e2e/_lib.mjs";
import { goals, sized } from "./_lib.mjs";

const WAITERS = sized(100, 10);
const ROUNDS = [
  { name: "default schedule", min: 1000, max: 30000 },
  { name: "short schedule", min: 250, max: 1000 },
];
const TOLERANCE = 0.05;
const STAGE_DELAY_MS = Number(process.env.TUNESMITH_BENCH_STAGE_DELAY_MS ?? 100);
const STAGES = 3;

const MUSIC = process.env.TUNESMITH_TEST_MUSIC_URL;
const KEY = process.env.TUNESMITH_TEST_API_KEY;
const PKG = process.env.TUNESMITH_PKG;
if (!MUSIC || !KEY || !PKG) {
  console.error("waiters bench: TUNESMITH_TEST_MUSIC_URL, TUNESMITH_TEST_API_KEY and TUNESMITH_PKG are required");
  process.exit(2);
}

// The package and a blank page, served from an ephemeral port (the emulator is another origin).
const site = await servePackagePage(PKG, "<!doctype html><title>waiters</title>");
const origin = site.url;

const browser = await chromium.launch({
  executablePath: process.env.TUNESMITH_CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
/** One round in the page: creates the tasks, waits for all, returns per-task timings. */
async function round(page, tag, min, max) {
  return page.evaluate(
    async ({ music, key, tag, waiters, min, max }) => {
      const { Client } = await import("/pkg/index.js");
      // Start and end (Date.now, comparable with the emulator's times) of each query, per task.
      const flights = new Map();
      const fetchTimed = async (url, init) => {
        const start = Date.now();
        try {
          return await fetch(url, init);
        } finally {
          const taskId = new URL(url).searchParams.get("taskId");
          if (taskId && url.includes("record-info")) {
            if (!flights.has(taskId)) flights.set(taskId, []);
            flights.get(taskId).push([start, Date.now()]);
          }
        }
      };
      const client = new Client({
        baseUrl: music, apiKey: key, dangerouslyAllowBrowser: true,
        headers: { "X-Emulator-Tag": tag }, fetch: fetchTimed,
      });
      const request = (i) => ({
        customMode: false, instrumental: true, model: "V6", prompt: `bench ${i}`,
        callBackUrl: "https://example.invalid/callbacks",
      });
      const ids = await Promise.all(Array.from({ length: waiters }, (_, i) => client.generate(request(i)).then((c) => c.taskId)));
      const wallStart = performance.now();
      const results = await Promise.allSettled(ids.map(async (id) => {
        const started = performance.now();
        const task = await client.waitForTask(id, { minIntervalMs: min, maxIntervalMs: max });
        return { id, state: task.state, createTime: task.createTime, ms: performance.now() - started };
      }));
      return {
        wallMs: performance.now() - wallStart,
        results: results.map((r) => (r.status === "fulfilled" ? r.value : { error: String(r.reason?.message ?? r.reason) })),
        flights: Object.fromEntries(flights),
      };
    },
    { music: MUSIC, key: KEY, tag, waiters: WAITERS, min, max },
  );
}

/** The queries the schedule prescribes for one waiter: nominal intervals (PollSchedule::nominal_ms,
 * written again here as an independent oracle) plus the measured round trips, until a query is
 * answered after the task is done. */
function prescribed(min, max, flights, doneAt) {
  const nominal = (n) => Math.round(Math.min(min * 1.5 ** Math.min(n - 1, 64), max));
  const trips = flights.map(([a, b]) => b - a);
  const meanTrip = trips.reduce((s, t) => s + t, 0) / Math.max(1, trips.length);
  let at = flights[0][0];
  for (let k = 0; ; k++) {
    const trip = trips[k] ?? meanTrip;
    // The service reads the state when the query arrives, at the latest when it answers.
    if (at + trip >= doneAt) return k + 1;
    at += trip + nominal(k + 1);
  }
}

let exitCode = 1;
try {
  const page = await browser.newPage();
  await page.goto(origin + "/");
  let completed = true;
  const verdicts = goals();
  console.log(`waiters: ${WAITERS} concurrent waitForTask in one page (±10% jitter; tasks end ${STAGES} x ${STAGE_DELAY_MS} ms after creation)`);
  for (const { name, min, max } of ROUNDS) {
    const tag = `bench-waiters-${min}-${Date.now()}`;
    const run = await round(page, tag, min, max);
    const log = await (await fetch(`${MUSIC}/_emulator/requests?tag=${encodeURIComponent(tag)}`)).json();
    const logged = log.requests.filter((r) => r.op === "getTask").length;
    const done = run.results.filter((r) => r.state === "succeeded");
    let expected = 0;
    let clientSide = 0;
    for (const r of done) {
      const flights = run.flights[r.id] ?? [];
      clientSide += flights.length;
      if (flights.length) expected += prescribed(min, max, flights, Date.parse(r.createTime) + STAGES * STAGE_DELAY_MS);
    }
    const ratio = logged / Math.max(1, expected);
    const durations = done.map((r) => r.ms).sort((a, b) => a - b);
    const pct = (p) => durations[Math.min(durations.length - 1, Math.floor(p * durations.length))]?.toFixed(0);
    const trips = Object.values(run.flights).flat().map(([a, b]) => b - a);
    const meanTrip = trips.reduce((s, t) => s + t, 0) / Math.max(1, trips.length);
    const good = Math.abs(ratio - 1) <= TOLERANCE && clientSide === logged;
    completed &&= done.length === WAITERS;
    verdicts.check(`${name}: queries within ±${TOLERANCE * 100}% of the schedule`, good);
    console.log(`  ${name} (${min} ms growing x1.5 to ${max} ms):`);
    console.log(`    completed ${done.length}/${WAITERS}, wall ${run.wallMs.toFixed(0)} ms, per waiter p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms`);
    console.log(`    queries: emulator log ${logged} (client side ${clientSide}, ${(logged / Math.max(1, done.length)).toFixed(2)} per waiter), prescribed ${expected}, ratio ${ratio.toFixed(3)} (within ±${TOLERANCE * 100}%: ${good ? "yes" : "NO"})`);
    console.log(`    mean query round trip ${meanTrip.toFixed(1)} ms`);
    const failures = run.results.filter((r) => r.error);
    if (failures.length) console.log(`    failures: ${[...new Set(failures.map((f) => f.error))].join("; ")}`);
  }
  verdicts.print();
  console.log(completed ? "waiters: every waiter completed" : "waiters: FAILED, some waiters did not complete");
  exitCode = completed ? 0 : 1;
} finally {
  await browser.close();
  await site.close();
}
process.exit(exitCode);
