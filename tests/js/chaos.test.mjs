// Short versions of the chaos scripts (tests/chaos/*.mjs, run in full by `cargo xtask chaos`): each
// script's core at a tiny scale, a few seconds each, with the same goals asserted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Fails with the figures when one of `names` (default: every goal) is missed. */
function assertGoals(name, { figures, goals }, names = Object.keys(goals)) {
  const missed = names.filter((k) => !goals[k].met).map((k) => `${k}: ${JSON.stringify(goals[k].value)} (target ${goals[k].target})`);
  assert.deepEqual(missed, [], `${name} missed goals; figures: ${JSON.stringify(figures).slice(0, 3000)}`);
}

/**
 * Runs `tests/chaos/<name>.mjs` as `cargo xtask chaos` does, in its own process (what it finds, such
 * as unhandled rejections, must not land on this test runner), at `scale`; resolves with its CHAOS
 * line's `{ figures, goals }`. Memoized: the tests of one script share one run.
 */
const runs = {};
function chaos(name, scale) {
  return (runs[name] ??= new Promise((resolve, reject) => {
    const script = fileURLToPath(new URL(`../chaos/${name}.mjs`, import.meta.url));
    const env = { ...process.env, CHAOS_SCALE: String(scale) };
    execFile(process.execPath, [script], { env, maxBuffer: 64 << 20, timeout: 110_000 }, (error, stdout, stderr) => {
      const line = stdout.split("\n").find((l) => l.startsWith("CHAOS "));
      if (!line) return reject(new Error(`${name}: no CHAOS line (${error?.message ?? "exit 0"})\n${stderr.slice(-2000)}`));
      resolve(JSON.parse(line.slice("CHAOS ".length)));
    });
  }));
}
const mutated = () => chaos("mutated-answers", 0.015); // 1,500 answers, 300 callback bodies
const hostile = () => chaos("hostile-values", 0.015); // 1,500 values

test("mutated answers: typed rejections only, nothing pending, no panic", async () => {
  assertGoals("mutated-answers", await mutated(), ["answersFed", "untypedRejections", "pendingPromises", "panics"]);
});

test(
  "mutated answers: a fetch that throws synchronously leaves no unhandled rejection",
  async () => {
    assertGoals("mutated-answers", await mutated(), ["unhandledRejections"]);
  },
);

test("hostile values: every entry point was reached, no panic", async () => {
  assertGoals("hostile-values", await hostile(), ["values", "panics"]);
});

test(
  "hostile values: typed errors only, nothing pending, nothing uncaught, dedupers keep working",
  async () => {
    assertGoals("hostile-values", await hostile(), ["untypedErrors", "pendingPromises", "brokenDedupers", "uncaughtExceptions", "unhandledRejections"]);
  },
);

test("faults under load: waiters complete under 30% faults, creates never duplicate", async () => {
  assertGoals("faults-under-load", await chaos("faults-under-load", 0.03)); // 30 waiters, 12 creates
});

test("calls in flight: per-call cost stays flat as calls pile up", async () => {
  // 1,000 vs 10,000 in flight: enough for a quadratic allocator to show (7x with the old one).
  assertGoals("calls-in-flight", await chaos("calls-in-flight", 0.25));
});

test(
  "companion: hostile input and forged callbacks refused, kill -9 of an instance on Redis loses no final stage",
  { skip: process.env.TUNESMITH_TEST_REDIS_URL ? false : "needs redis-server (started by cargo xtask test)" },
  async () => {
    assertGoals("companion", await chaos("companion", 0.05)); // 2 bursts of 52, 10 trickling sockets, 20 pages
  },
);
