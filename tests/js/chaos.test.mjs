// Short versions of the chaos scripts (tests/chaos/*.mjs, run in full by `cargo xtask chaos`): each
// script's core at a tiny scale, a few seconds each, with the same goals asserted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** Fails with the figures when one of `names` (default: every goal) is missed. */
function assertGoals(name, { figures, goals }, names = Object.keys(goals)) {
  const missed = names.filter((k) => !goals[k].met).map((k) => `${k}: ${JSON.stringify(goals[k].value)} (target ${goals[k].target})`);
  const { surface, ...shown } = figures;
  assert.deepEqual(missed, [], `${name} missed goals: ${missed.join("; ")}; figures: ${JSON.stringify(shown).slice(0, 3000)}`);
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
// The whole matrix (every hostile kind in every slot, about 7,000 cases), then 300 random values.
const hostile = () => chaos("hostile-values", 0.003);

/** The fields of `interface name` (and of the interfaces it extends) in the package's `.d.ts`. */
function declaredFields(dts, name) {
  const at = dts.search(new RegExp(`export interface ${name}\\b`));
  assert.ok(at >= 0, `no interface ${name} in the .d.ts`);
  const open = dts.indexOf("{", at);
  const head = dts.slice(at, open);
  const body = dts.slice(open, dts.indexOf("\n}", at));
  const own = [...body.matchAll(/^  (\w+)\??:/gm)].map((m) => m[1]);
  const parents = head.match(/extends ([\w, ]+)/)?.[1].split(",").map((p) => p.trim()) ?? [];
  return [...new Set([...own, ...parents.flatMap((p) => declaredFields(dts, p))])];
}

test("mutated answers: typed rejections only, nothing pending, no panic", async () => {
  assertGoals("mutated-answers", await mutated(), ["answersFed", "untypedRejections", "pendingPromises", "panics"]);
});

test(
  "mutated answers: a fetch that throws synchronously leaves no unhandled rejection",
  async () => {
    assertGoals("mutated-answers", await mutated(), ["unhandledRejections"]);
  },
);

test("hostile values: every kind of value in every slot of every entry point, in a fixed order", async () => {
  const result = await hostile();
  assertGoals("hostile-values", result, ["matrixCovered", "values"]);
  const { matrix, surface } = result.figures;
  assert.ok(matrix.slots >= 200 && matrix.kinds >= 29, JSON.stringify(matrix));
  assert.equal(matrix.cases, matrix.slots * matrix.kinds);
  // The slots cover what the package declares: every option of each options type, every method.
  const pkg = process.env.TUNESMITH_PKG ?? fileURLToPath(new URL("../../pkg", import.meta.url));
  const dts = await readFile(resolve(pkg, "tunesmith.d.ts"), "utf8");
  const missing = (declared, covered) => declared.filter((f) => !covered.includes(f));
  assert.deepEqual(missing(declaredFields(dts, "ClientOptions"), surface.client), []);
  assert.deepEqual(missing([...declaredFields(dts, "RequestOptions"), "wait"], surface.call), []);
  assert.deepEqual(missing(declaredFields(dts, "WaitOptions"), surface.wait), []);
  for (const options of ["UploadFileOptions", "UploadBase64Options", "UploadFromUrlOptions"]) {
    assert.deepEqual(missing(declaredFields(dts, options), surface.upload), [], options);
  }
  const { Client } = await import(pathToFileURL(resolve(pkg, "node.js")).href);
  const methods = Object.getOwnPropertyNames(Client.prototype).filter((m) => m !== "constructor" && m !== "free" && !m.startsWith("__"));
  assert.ok(methods.length >= 48, methods.join());
  assert.deepEqual(missing(methods, surface.methods), []);
});

test("hostile values: no panic, no trap of the wasm module", async () => {
  assertGoals("hostile-values", await hostile(), ["panics", "wasmTraps"]);
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

test("boundaries: nothing read outside the roots, no upload overwritten, no /mcp request past the limits or foreign id of a forged callback let through", async () => {
  // Every part but the memory one (CHAOS_SCALE below 0.5): 1 round of uploads and forged callbacks.
  assertGoals("boundaries", await chaos("boundaries", 0.05), [
    "filesOutsideTheRootsRead", "filesInsideTheRootsUploaded", "foreignUploadsOverwritten", "mcpRequestsOverTheLimitServed",
    "companion429sRead", "companion429ReadAsInsufficientCredits", "companion429NotReadAsRateLimited",
    "forgedCallbacksClaimingForeignIdsAccepted", "keyInAnswersOrLogs",
  ]);
});
