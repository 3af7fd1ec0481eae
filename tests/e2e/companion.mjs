// End-to-end: a page in headless Chromium → the companion server → the emulator. The
// key appears in no request, response, storage or console line of the page; two users cannot read
// each other's tasks; a forged callback is refused; after the companion is killed (-9) and
// restarted, a page reconnects and still gets every stage, once. The companion runs in its own
// process on Redis (TUNESMITH_TEST_REDIS_URL), the page on another origin (CORS is exercised).
import { createServer } from "node:net";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM, assert, emulator, runTests, servePackagePage, test } from "./_lib.mjs";
import { spawnCompanion } from "../js/companion/process.mjs";

const PKG = process.env.TUNESMITH_PKG;
const REDIS = process.env.TUNESMITH_TEST_REDIS_URL;
if (!PKG || !REDIS) {
  console.error("companion e2e: TUNESMITH_PKG and TUNESMITH_TEST_REDIS_URL are required (run by cargo xtask test)");
  process.exit(2);
}

// Stages a second apart, so that the companion can be killed between two of them.
const emu = await emulator({ own: true, args: ["--stage-delay-ms", "1200", "--callback-retry-delay-ms", "300"] });
const PAGE = `<!doctype html>
<title>companion</title>
<script type="module">
  import { Client } from "/pkg/index.js";
  window.Client = Client;
  window.__ready = true;
</script>`;
const site = await servePackagePage(PKG, PAGE);

async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}
const port = await freePort();
const companionEnv = {
  TUNESMITH_TEST_MUSIC_URL: emu.music,
  TUNESMITH_TEST_UPLOAD_URL: emu.upload,
  TUNESMITH_TEST_API_KEY: emu.key,
  COMPANION_PORT: String(port),
  COMPANION_STORE: "redis",
  COMPANION_REDIS_URL: REDIS,
  COMPANION_REDIS_PREFIX: `e2e-${process.pid}-${Date.now()}:`,
  COMPANION_ORIGINS: JSON.stringify([site.url]),
};
let companion = await spawnCompanion(companionEnv);
const companionUrl = companion.url;
const logs = () => companion.output.join("");
const pastLogs = [];

const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
/** Everything a page sent, received, stored and printed: the key must be in none of it. */
const transcript = [];

async function openPage(user) {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on("console", (m) => transcript.push(`console ${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => transcript.push(`pageerror: ${e.message}`));
  page.on("request", (r) => transcript.push(`request ${r.method()} ${r.url()} ${JSON.stringify(r.headers())} ${r.postData() ?? ""}`));
  page.on("response", async (r) => {
    transcript.push(`response ${r.status()} ${r.url()} ${JSON.stringify(r.headers())}`);
    if (!(r.headers()["content-type"] ?? "").startsWith("text/event-stream")) {
      transcript.push(await r.text().catch(() => ""));
    }
  });
  await page.goto(site.url + "/");
  await page.waitForFunction(() => window.__ready === true);
  await page.evaluate(({ url, user }) => {
    window.client = new window.Client({ companionUrl: url, headers: { "x-session": `${user}-session` } });
    window.stages = [];
  }, { url: companionUrl, user });
  const storage = async () =>
    JSON.stringify(await context.storageState()) + (await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })));
  return { page, context, storage };
}

const GENERATE = { customMode: false, instrumental: true, model: "V4_5", prompt: "e2e through the companion" };

let alice;
let bob;
let aliceTask;

test("a page gets every stage pushed through the companion, with no key", async () => {
  alice = await openPage("alice");
  const result = await alice.page.evaluate(async (request) => {
    const task = await window.client.generate(request, { wait: { onProgress: (t) => window.stages.push(t.stage) } });
    return { taskId: task.taskId, state: task.state, tracks: task.tracks.length, stages: window.stages };
  }, GENERATE);
  aliceTask = result.taskId;
  // Pending when the first read sees it (stages are quick here: a loaded machine may first read "text").
  assert(JSON.stringify(result.stages.filter((s) => s !== "pending")) === JSON.stringify(["text", "first", "complete"]) && result.stages.indexOf("pending") <= 0, `stages ${JSON.stringify(result.stages)}`);
  assert(result.state === "succeeded" && result.tracks === 2, JSON.stringify(result));
});

test("another user cannot read the task, wait for it, or follow its events", async () => {
  bob = await openPage("bob");
  const outcome = await bob.page.evaluate(async ({ taskId, url }) => {
    const read = await window.client.getTask({ taskId }).then(() => "read", (e) => `${e.name}:${e.status ?? e.code}`);
    const waited = await window.client.waitForTask(taskId, { timeoutMs: 5000 }).then(() => "got it", (e) => e.name);
    const events = (await fetch(`${url}/events?task=${taskId}`, { headers: { "x-session": "bob-session" } })).status;
    return { read, waited, events, stages: window.stages };
  }, { taskId: aliceTask, url: companionUrl });
  assert(outcome.read !== "read" && outcome.read.includes("404"), `getTask: ${outcome.read}`);
  assert(outcome.waited !== "got it", `waitForTask: ${outcome.waited}`);
  assert(outcome.events === 404, `events: ${outcome.events}`);
});

test("a forged callback is refused", async () => {
  // From the page as an attacker can send it: a simple request (no preflight), read at the network.
  const statuses = [];
  for (const path of ["/callbacks/" + "A".repeat(43), "/callbacks/forged"]) {
    const [response] = await Promise.all([
      bob.page.waitForResponse((r) => r.url() === companionUrl + path),
      bob.page.evaluate(({ url }) => {
        const body = JSON.stringify({ code: 200, msg: "ok", data: { callbackType: "complete", task_id: "forged", data: [] } });
        return fetch(url, { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body }).then(() => null, () => null);
      }, { url: companionUrl + path }),
    ]);
    statuses.push(response.status());
  }
  assert(statuses.every((s) => s === 403), `statuses ${statuses}`);
});

test("after kill -9 and a restart of the companion, the page reconnects and gets every stage once", async () => {
  const page = alice.page;
  await page.evaluate((request) => {
    window.stages = [];
    window.done = window.client
      .generate(request, { wait: { onProgress: (t) => window.stages.push(t.stage) } })
      .then((t) => ({ state: t.state, tracks: t.tracks.length }), (e) => ({ error: `${e.name}: ${e.message}` }));
  }, GENERATE);
  await page.waitForFunction(() => window.stages.includes("text"), null, { timeout: 30_000 });
  await companion.kill("SIGKILL");
  pastLogs.push(logs());
  await new Promise((r) => setTimeout(r, 1500));
  companion = await spawnCompanion(companionEnv);
  const result = await page.evaluate(() => window.done);
  const stages = await page.evaluate(() => window.stages);
  assert(!result.error && result.state === "succeeded" && result.tracks === 2, JSON.stringify(result));
  assert(JSON.stringify(stages) === JSON.stringify(["pending", "text", "first", "complete"]), `stages ${JSON.stringify(stages)}`);
});

test("the key is in no request, response, storage or console line of the pages, nor the companion's log", async () => {
  const stores = [await alice.storage(), await bob.storage()];
  const everything = [...transcript, ...stores, ...pastLogs, logs()];
  assert(transcript.length > 20, `only ${transcript.length} lines were recorded`);
  const found = everything.filter((line) => line.includes(emu.key));
  assert(found.length === 0, `the key appears ${found.length} time(s), e.g. ${found[0]?.slice(0, 200)}`);
  assert(transcript.some((l) => l.startsWith("request ") && l.includes(companionUrl)), "the page talked to the companion");
  assert(!transcript.some((l) => l.startsWith("request ") && l.includes(emu.music)), "the page never talked to the service");
});

await runTests(async () => {
  await browser.close();
  await companion.kill();
  await site.close();
  await emu.stop();
});
