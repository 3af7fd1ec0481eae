// Shared by the bench scripts: the smoke switch, with which `cargo xtask test` runs each script once
// at a small size so that none can break unseen, and the verdict lines every script prints.
//
// A script exits non-zero only when something broke (an error, a wrong answer); a goal missed is
// printed as MISS, since figures are measured by `cargo xtask bench`, never asserted by a test.

/** Set by `cargo xtask test` (TUNESMITH_BENCH_SMOKE=1): small sizes, a run or two. */
export const SMOKE = process.env.TUNESMITH_BENCH_SMOKE === "1";

/** `full` in a benchmark run, `small` in a smoke run. */
export const sized = (full, small) => (SMOKE ? small : full);

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Collects goal verdicts and prints them as `PASS`/`MISS` lines. */
export function goals() {
  const list = [];
  return {
    check(label, ok) {
      list.push({ label, ok });
      return ok;
    },
    print() {
      for (const { label, ok } of list) console.log(`  ${ok ? "PASS" : "MISS"}  ${label}`);
      if (SMOKE) console.log("  (smoke run: sizes too small for the figures to mean anything)");
    },
  };
}
