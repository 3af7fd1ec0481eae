// The demo as a static site (pkg/site/) in headless Chromium, served by a plain static file server:
// its service worker runs the emulator's wasm build and the companion, so the page needs no server
// and holds no key. The melody uploaded, add-instrumental through every stage (each shown once), the
// first track heard, covers and WAV, stems, MIDI, the video and recovery; tasks, uploads and credits kept across a reload (IndexedDB);
// the worker stopped in the middle of a task (as an idle browser does), the task still completing
// with every stage shown once; and, after the first visit, the whole site with the server gone and
// the network off. Screenshots go to target/e2e-screenshots/site-*.png.
import { join } from "node:path";
import { SCREENSHOTS, assert, ensureTools, runTests, studioPage, test, wav, writeFile } from "./_lib.mjs";
import { pageFetch, staticSite, workerControls } from "./_site.mjs";
import { flowSteps } from "./_flows.mjs";

const tools = await ensureTools();
// Stages slow enough to stop the worker between two of them. No rate limit (as every demo suite's
// emulator): the suite clicks through covers, WAV, stems, MIDI and the video faster than the
// service's 20 requests per 10 s allow.
const site = await staticSite({ stageDelayMs: 1500, args: ["--rate-limit", "0"] });
const { chromium, page, consoleErrors, shotOf } = await studioPage(tools);
const shot = (name) => page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });
const workers = await workerControls(page);
const { until, waitNewTaskComplete: taskComplete, studioTools } = flowSteps(page);

const wavPath = join(site.site, "..", `site-hum-${Date.now()}.wav`);
await writeFile(wavPath, wav(12));

/** The pushed states listed for the task on show: each stage's count. */
async function stagesShown() {
  const states = await page.$$eval("#states li", (lis) => lis.map((li) => li.textContent));
  const counts = {};
  for (const s of states) {
    const stage = ["pending", "text", "first", "complete"].find((name) => s.includes(name));
    if (stage) counts[stage] = (counts[stage] ?? 0) + 1;
  }
  return { states, counts };
}

async function loaded() {
  await page.waitForSelector("body[data-ready=true]", { timeout: 60000 });
  await page.waitForSelector("#conn[data-state=ok]", { timeout: 30000 });
}

const credits = async () => (await page.textContent("#credits")).replace(/\D/g, "");

test("a plain static server serves the site; its service worker controls the page, which talks to the companion and holds no key", async () => {
  await page.goto(`${site.url}/`);
  await loaded();
  assert(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)), "a service worker controls the page");
  await page.click("#settings summary");
  assert((await page.inputValue("#settings-form [name=companionUrl]")) === `${site.url}/ts`, "the companion is the worker's, at ./ts");
  assert(!(await page.isVisible("#settings-form [name=apiKey]")), "no key field through the companion");
  await page.click("#settings summary");
  // The service itself answers under the site's origin.
  const doc = await pageFetch(page, "./music/openapi.json");
  assert(doc.status === 200 && doc.json?.openapi, `the emulator's music host answers: ${doc.status}`);
  const noKey = await pageFetch(page, "./music/api/v1/generate/credit");
  assert(noKey.json?.code === 401, `the music host wants the key, which the page has not: ${JSON.stringify(noKey.json)}`);
  assert(/\d/.test(await credits()), "credits shown");
  await shot("site-1-start.png");
});

let firstTask;
test("the melody uploads and add-instrumental goes through every stage, each shown once, the first track heard", async () => {
  await page.setInputFiles("#file", wavPath);
  await page.waitForSelector("#file-details:not([hidden])", { timeout: 30000 });
  await page.fill("[name=title]", "Night drive");
  await page.click("#go");
  firstTask = await taskComplete("");
  const { states, counts } = await stagesShown();
  for (const stage of ["text", "first", "complete"]) assert(counts[stage] === 1, `${stage} shown once: ${states.join(" | ")}`);
  assert((await page.$$(".track")).length === 2, "two tracks");
  await page.waitForFunction(() => {
    const audio = document.querySelector(".track audio");
    return audio && !audio.paused && audio.currentTime > 0.5;
  }, null, { timeout: 20000 });
  // No key in anything the page holds.
  const held = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.documentElement.outerHTML);
  assert(!/ts-site-[0-9a-f]{8}/.test(held), "the worker's key is nowhere on the page");
});

test("covers and WAV", async () => {
  await page.click("#covers-btn");
  await page.waitForFunction(() => {
    const imgs = [...document.querySelectorAll("#covers img")];
    return imgs.length === 2 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  }, null, { timeout: 60000 });
  await page.click(".track .t-actions button:has-text('Convert to WAV')");
  const link = await page.waitForSelector(".wav-link", { timeout: 60000 });
  const href = await link.getAttribute("href");
  const head = await page.evaluate(async (u) => {
    const res = await fetch(u);
    const bytes = new Uint8Array(await res.arrayBuffer());
    return { status: res.status, type: res.headers.get("content-type"), magic: String.fromCharCode(...bytes.slice(0, 4)) };
  }, href);
  assert(head.status === 200 && /audio\/(wav|x-wav|wave)/.test(head.type) && head.magic === "RIFF", `WAV: ${JSON.stringify(head)}`);
});

test("studio flows in the worker: stems, a stem's MIDI, the video, fresh links for the song", async () => {
  await studioTools(firstTask);
  await shot("site-1b-studio.png");
});

test("a reload keeps the tasks, the upload and the credits (IndexedDB)", async () => {
  const before = await credits();
  const upload = await page.evaluate(() => document.querySelector("#file-details")?.textContent ?? "");
  // The worker's memory goes too (as when the browser stops it): only IndexedDB is left.
  await workers.stopAll();
  await page.reload();
  await loaded();
  assert((await credits()) === before, `credits ${before} before the reload, ${await credits()} after`);
  await page.waitForSelector("#history li", { timeout: 15000 });
  const history = await page.textContent("#history");
  assert(history.includes(firstTask.slice(0, 8)) || (await page.$$("#history li")).length >= 1, `the task is in Your tasks: ${history}`);
  assert(upload.includes("audio/wav"), "the upload was shown before");
  // The worker's records still name the task: read through the companion.
  const rec = await pageFetch(page, `./ts/music/api/v1/generate/record-info?taskId=${firstTask}`);
  assert(rec.json?.data?.status === "SUCCESS", `the task's record after a reload: ${JSON.stringify(rec.json)?.slice(0, 200)}`);
});

test("the worker stopped in the middle of a task: the task still completes, each stage shown once", async () => {
  await page.click("#sample");
  await page.waitForSelector("#file-details:not([hidden])", { timeout: 30000 });
  await page.fill("[name=title]", "Night drive again");
  await page.click("#go");
  // Once the first stage is on show, the browser stops the worker (as it does an idle one).
  await until(() => ["active", "done"].includes(document.querySelector("#timeline li[data-stage=text]")?.dataset.state ?? ""), null, 30000);
  const stoppedAt = await page.$$eval("#timeline li", (lis) => lis.map((li) => `${li.dataset.stage}:${li.dataset.state}`));
  const seen = workers.statuses.length;
  await workers.stopAll();
  const id = await taskComplete(firstTask, 90000);
  const after = workers.statuses.slice(seen);
  assert(after.includes("stopped") && after.lastIndexOf("running") > after.indexOf("stopped"), `the worker stopped, then woke: ${after}`);
  const { states, counts } = await stagesShown();
  for (const stage of ["text", "first", "complete"]) assert(counts[stage] === 1, `${stage} shown once (stopped at ${stoppedAt}): ${states.join(" | ")}`);
  assert(id !== firstTask, "a new task");
  await shot("site-2-after-stop.png");
});

test("after the first visit the site works with the server gone and the network off", async () => {
  await site.stop();
  await page.context().setOffline(true);
  try {
    await page.reload();
    await loaded();
    const before = await page.textContent("#task-id");
    await page.click("#sample");
    await page.waitForSelector("#file-details:not([hidden])", { timeout: 30000 });
    await page.fill("[name=title]", "Offline");
    await page.click("#go");
    await taskComplete(before);
    await shotOf("#timeline", "site-3-offline.png");
  } finally {
    await page.context().setOffline(false);
  }
});

test("no console errors", async () => {
  assert(consoleErrors.length === 0, `console errors:\n${consoleErrors.join("\n")}`);
});

runTests(async () => {
  await chromium.close();
  await site.stop().catch(() => {});
});
