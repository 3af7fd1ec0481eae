// Figures of the demo as a static site (pkg/site/), in headless Chromium, printed as JSON:
// - firstVisitGzipBytes: what a first visit loads, each file gzipped as a static host serves it
//   (the page loads its own files; the worker, when it installs, caches every file of the site);
// - firstTaskMs: from opening the page in a fresh browser to the first task's `complete`, at the
//   site's default stage delay (its companion.json, as built), the sample melody, add-instrumental;
// - coldStartMs: a request that wakes a stopped worker (IndexedDB read, both wasm modules compiled
//   and instantiated, the companion made), against the same request to the running worker.
// usage: node bench/site/measure.mjs [SITE_DIR]   (default pkg/site; TUNESMITH_CHROMIUM: Chromium)
import { readdir, readFile, stat } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { join, resolve } from "node:path";
import { browser, ensureTools, serveStatic } from "../../tests/e2e/_lib.mjs";

const dir = resolve(process.argv[2] ?? join(import.meta.dirname, "..", "..", "pkg", "site"));

async function files(d) {
  const out = [];
  for (const e of await readdir(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) out.push(...(await files(p)));
    else out.push(p);
  }
  return out;
}

let gz = 0;
let raw = 0;
const byFile = {};
for (const f of await files(dir)) {
  const bytes = await readFile(f);
  const g = gzipSync(bytes, { level: 9 }).length;
  gz += g;
  raw += (await stat(f)).size;
  byFile[f.slice(dir.length + 1)] = g;
}
const biggest = Object.entries(byFile).sort((a, b) => b[1] - a[1]).slice(0, 4);

const tools = await ensureTools();
const server = await serveStatic(dir);
const chromium = await browser(tools);
const context = await chromium.newContext();
const page = await context.newPage();
const t0 = performance.now();
await page.goto(`${server.url}/`);
await page.waitForSelector("#conn[data-state=ok]", { timeout: 120000 });
const readyMs = performance.now() - t0;
await page.click("#sample");
await page.waitForSelector("#file-details:not([hidden])", { timeout: 60000 });
await page.click("#go");
await page.waitForFunction(() => document.querySelector("#timeline li[data-stage=complete]")?.dataset.state === "done", null, { timeout: 120000 });
const firstTaskMs = performance.now() - t0;

const cdp = await context.newCDPSession(page);
let status = "running";
cdp.on("ServiceWorker.workerVersionUpdated", ({ versions }) => {
  for (const v of versions) status = v.runningStatus;
});
await cdp.send("ServiceWorker.enable");
const timed = () => page.evaluate(async () => {
  const t = performance.now();
  await (await fetch("./music/openapi.json")).text();
  return performance.now() - t;
});
const statuses = [];
const cold = [];
const warm = [];
for (let i = 0; i < 5; i++) {
  await cdp.send("ServiceWorker.stopAllWorkers");
  // Timed only once the browser says the worker is stopped.
  const until = Date.now() + 5000;
  while (status !== "stopped" && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  statuses.push(status);
  const ms = await timed();
  // A worker the browser had not yet stopped is no cold start.
  if (status === "stopped") cold.push(ms);
  warm.push(await timed());
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(JSON.stringify({
  site: dir,
  firstVisitGzipBytes: gz,
  firstVisitRawBytes: raw,
  largestGzipped: Object.fromEntries(biggest),
  pageReadyMs: Math.round(readyMs),
  firstTaskMs: Math.round(firstTaskMs),
  stageDelayMs: JSON.parse(await readFile(join(dir, "companion.json"), "utf8")).emulator?.stageDelayMs,
  coldStartMs: Math.round(median(cold)),
  warmRequestMs: Math.round(median(warm) * 10) / 10,
  statusWhenTimed: statuses,
  runs: { cold: cold.map(Math.round), warm: warm.map((w) => Math.round(w * 10) / 10) },
}, null, 2));
await chromium.close();
await server.close();
