// The demo page as `cargo xtask demo` runs it, through the demo's own companion (which holds the key;
// the page holds none), in headless Chromium: Settings neither drops the companion nor offers a key;
// "Simulate a service answer" and "Top up" work through it; "Callbacks received" lists what the
// companion received and pushed, and the states are labelled pushed; one event stream per task,
// never dropped and reopened between stages; a session the companion refuses reads as such; after
// the companion restarts, the user's tasks are still theirs.
// Screenshots go to target/e2e-screenshots/companion-*.png.
import { createServer } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PKG, SCREENSHOTS, assert, demoSite, ensureTools, freePort, runTests, studioPage, test } from "./_lib.mjs";
import { flowSteps } from "./_flows.mjs";

const tools = await ensureTools();
// The stage delay of `cargo xtask demo`: longer than a polling interval, so that a push waiter
// that took one for its stall time would drop its stream between two stages.
const emu = await demoSite({ stageDelayMs: 1500, companion: true });
const { chromium, page, consoleErrors, shotOf } = await studioPage(tools);
/** Every request the page made: `{ url, method, headers }`, and the event streams that failed. */
const sent = [];
const failed = [];
page.on("request", (r) => sent.push({ url: r.url(), method: r.method(), headers: r.headers() }));
page.on("requestfailed", (r) => failed.push({ url: r.url(), error: r.failure()?.errorText }));

const admin = (path, body) => fetch(`${emu.music}${path}`, {
  method: body ? "POST" : "GET",
  headers: { authorization: `Bearer ${emu.key}`, "content-type": "application/json" },
  body: body ? JSON.stringify(body) : undefined,
}).then((r) => r.json());
const balance = async () => (await admin("/api/v1/generate/credit")).data;
const sentTo = async (op) => (await admin("/_emulator/requests")).requests.filter((r) => r.op === op);

async function waitComplete(before = "") {
  await page.waitForFunction((b) => {
    const id = document.querySelector("#task-id")?.textContent;
    const li = document.querySelector("#timeline li[data-stage=complete]");
    return id && id !== b && li?.dataset.state === "done" && document.querySelectorAll(".track").length === 2;
  }, before, { timeout: 60000 });
  return page.textContent("#task-id");
}

test("the page talks to the companion, and Settings offers no key it does not hold", async () => {
  await page.goto(`${emu.music}/`);
  await page.waitForSelector("body[data-ready=true]");
  await page.waitForSelector("#conn[data-state=ok]", { timeout: 15000 });
  await page.click("#settings summary");
  assert((await page.inputValue("#settings-form [name=companionUrl]")) === emu.companionUrl, "the companion's URL is shown");
  for (const name of ["apiKey", "baseUrl", "uploadUrl", "callBackUrl"]) {
    assert(!(await page.isVisible(`#settings-form [name=${name}]`)), `Settings offers ${name} through the companion`);
  }
  const text = await page.innerText("#settings-form");
  assert(!/API key|ts-dev-key|Anyone who opens a page can read a key/i.test(text), `Settings speaks of a key: ${text}`);
  assert(/holds no key/.test(text), `Settings says where the key is: ${text}`);
  assert(/through the companion/.test(await page.textContent("#settings-summary")), "the summary names the companion");
  await shotOf("#settings", "companion-1-settings.png");
});

let taskId;
test("Settings → Apply keeps the companion: the credits and a whole task still go through it", async () => {
  await page.click("#settings-form button[type=submit]");
  await page.waitForFunction(() => document.querySelector("#settings-note").textContent === "Applied.");
  await page.waitForSelector("#conn[data-state=ok]", { timeout: 15000 });
  await page.click("#settings summary");
  await page.click("#sample");
  await page.waitForSelector("#file-details:not([hidden])", { timeout: 30000 });
  const streamsBefore = sent.filter((r) => r.url.includes("/ts/events")).length;
  await page.click("#go");
  taskId = await waitComplete();
  assert((await page.getAttribute("#conn", "data-state")) === "ok", "still connected");
  // One event stream followed the task to its end: it was not dropped and reopened at each stage.
  const streams = sent.filter((r) => r.url.includes("/ts/events")).length - streamsBefore;
  assert(streams === 1, `${streams} event streams for one task`);
  const dropped = failed.filter((f) => f.url.includes("/ts/events"));
  assert(dropped.length <= 1, `event streams aborted: ${JSON.stringify(dropped)}`);
  // The uploaded file's public link is the page's to play (and to read the first bytes of); the
  // service's routes are the companion's.
  const direct = sent.filter((r) => r.url.startsWith(`${emu.music}/api/`) || (r.url.startsWith(emu.upload) && !r.url.startsWith(`${emu.upload}/download/`)));
  assert(direct.length === 0, `the page called the service itself: ${direct.map((r) => r.url).join(", ")}`);
});

test("Callbacks received lists what the companion received and pushed; the states are labelled pushed", async () => {
  await page.waitForFunction(() => {
    const items = [...document.querySelectorAll("#callbacks li")];
    return ["text", "first", "complete"].every((s) => items.some((li) => li.dataset.stage === s && li.dataset.outcome === "pushed"));
  }, null, { timeout: 30000 });
  const rows = await page.$$eval("#callbacks li", (lis) => lis.map((li) => li.firstChild.parentElement.innerText.split("\n")[0]));
  assert(rows.every((r) => r.includes(taskId.slice(0, 8))), `callbacks of the task: ${rows.join(" | ")}`);
  assert(rows.every((r) => /pushed to this page/.test(r)), `each marked pushed: ${rows.join(" | ")}`);
  assert((await page.textContent("#states-title")) === "Pushed states", "the column says pushed");
  const states = await page.$$eval("#states li", (lis) => lis.map((li) => li.textContent));
  for (const stage of ["text", "first", "complete"]) {
    assert(states.some((s) => s.includes(stage) && /· pushed$/.test(s)), `${stage} labelled pushed: ${states.join(" | ")}`);
  }
  assert(!states.some((s) => /polled/.test(s)), `nothing says polled: ${states.join(" | ")}`);
  await page.mouse.move(0, 0);
  await shotOf("#h-events >> xpath=..", "companion-2-callbacks.png");
});

const { until, studioTools } = flowSteps(page);

test("every family's pushed states read from its record: covers, WAV, stems, MIDI, video and recovery, none undefined", async () => {
  await page.click("#covers-btn");
  await until(() => /\d+ images\./.test(document.querySelector("#covers-status").textContent));
  await page.click(".track .t-actions button:has-text('Convert to WAV')");
  await until(() => document.querySelector(".track .wav-link"));
  await studioTools(taskId);
  // A family's state that ends the wait may be reported as it is pushed: give it its moment.
  await page.waitForTimeout(500);
  const rows = await page.$$eval("#states li", (lis) => lis.map((li) => ({ family: li.querySelector(".tag")?.textContent, text: li.textContent })));
  for (const family of ["cover", "wav", "stems", "midi", "video", "recovery"]) {
    const pushed = rows.filter((r) => r.family === family && /· pushed$/.test(r.text));
    assert(pushed.length >= 1, `${family}: no pushed state listed: ${rows.map((r) => r.text).join(" | ")}`);
    const bad = pushed.filter((r) => /undefined|null|NaN/.test(r.text) || !/(pending|running|succeeded|failed)/.test(r.text));
    assert(bad.length === 0, `${family}: ${bad.map((r) => r.text).join(" | ")}`);
  }
  await page.mouse.move(0, 0);
  await shotOf("#h-events >> xpath=..", "companion-2b-every-family.png");
});

test("Simulate a service answer works through the companion, for one request", async () => {
  await page.click("#settings summary");
  await page.selectOption("[name=emulateCode]", "455");
  await page.click("#settings-form button[type=submit]");
  await page.waitForFunction(() => /code 455/.test(document.querySelector("#settings-note").textContent));
  await page.click("#settings summary");
  await page.click("button.boost");
  const alert = await page.waitForSelector("#op-form .alert.kind-maintenance", { timeout: 15000 });
  const text = await alert.innerText();
  assert(/maintenance/i.test(text) && !/unauthori|API key/i.test(text), `message: ${text}`);
  const boosts = await sentTo("boostStyle");
  assert(boosts.at(-1)?.code === 455, `the emulator answered the boost with ${boosts.at(-1)?.code}`);
  await page.waitForTimeout(400); // the message's entrance, for the screenshot
  await shotOf("#op-form", "companion-3-simulated.png");
  // The next request is answered normally.
  await page.click("button.boost");
  let after = boosts;
  for (let i = 0; i < 100 && after.length === boosts.length; i++) {
    await page.waitForTimeout(100);
    after = await sentTo("boostStyle");
  }
  assert(after.length === boosts.length + 1 && after.at(-1).code === 200, `the next boost answered ${after.at(-1)?.code}`);
});

test("Top up on the not-enough-credits message works through the companion", async () => {
  await admin("/_emulator/credits", { credits: 3 });
  await page.click("#go");
  const alert = await page.waitForSelector("#op-form .alert.kind-insufficient_credits", { timeout: 15000 });
  await page.waitForTimeout(400); // the message's entrance, for the screenshot
  await shotOf("#op-form", "companion-4-credits.png");
  await alert.$("button:has-text('Top up')").then((b) => b.click());
  await page.waitForFunction(() => document.querySelector("#credits").textContent === "10,000", null, { timeout: 15000 });
  assert((await balance()) === 10000, `the emulator's balance: ${await balance()}`);
  assert(!(await page.$(".alert.kind-unauthorized")), "no 401");
  assert(!(await page.$(".alert.kind-insufficient_credits")), "the message went with the top-up");
});

let refusing;
test("a session the companion refuses reads as a session problem, not a key problem", async () => {
  // A real companion whose sign-in check refuses every page, as an app's does a stale session.
  const server = await import(pathToFileURL(join(PKG, "server", "index.js")).href);
  const port = await freePort();
  const handler = server.createCompanion({
    apiKey: emu.key, baseUrl: emu.music, uploadUrl: emu.upload, publicUrl: `http://127.0.0.1:${port}/ts`,
    origins: [emu.music], authorize: () => null, log: () => {},
  });
  const errorsBefore = consoleErrors.length;
  refusing = createServer(server.toNodeListener(handler));
  await new Promise((r) => refusing.listen(port, "127.0.0.1", r));
  await page.click("#settings summary");
  await page.fill("#settings-form [name=companionUrl]", `http://127.0.0.1:${port}/ts`);
  await page.click("#settings-form button[type=submit]");
  const alert = await page.waitForSelector(".alert.kind-unauthorized", { timeout: 15000 });
  const text = await alert.innerText();
  assert(/companion did not accept this page's session/.test(text), `message: ${text}`);
  assert(!/API key/i.test(text), `the message speaks of an API key: ${text}`);
  assert((await page.textContent("#conn-text")) === "Session refused", `status: ${await page.textContent("#conn-text")}`);
  await page.waitForTimeout(400); // the message's entrance, for the screenshot
  await page.screenshot({ path: join(SCREENSHOTS, "companion-5-session.png") });
  await page.fill("#settings-form [name=companionUrl]", emu.companionUrl);
  await page.click("#settings-form button[type=submit]");
  await page.waitForSelector("#conn[data-state=ok]", { timeout: 15000 });
  // The browser reports the refused requests this test asked for; nothing else may appear.
  const mine = consoleErrors.splice(errorsBefore).filter((e) => !/status of 401/.test(e));
  consoleErrors.push(...mine);
});

test("after the demo's companion restarts, Your tasks are still this user's and open", async () => {
  const errorsBefore = consoleErrors.length;
  await emu.restartCompanion();
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  // While the companion was down, the page's open stream and reads were refused; nothing else.
  const mine = consoleErrors.splice(errorsBefore).filter((e) => !/ERR_CONNECTION_REFUSED/.test(e));
  consoleErrors.push(...mine);
  await page.waitForSelector("#conn[data-state=ok]", { timeout: 15000 });
  await page.click(`#history li[data-id="${taskId}"] button`);
  await page.waitForFunction((id) => document.querySelector("#task-id").textContent === id
    && document.querySelector("#timeline li[data-stage=complete]").dataset.state === "done"
    || document.querySelector(".alert"), taskId, { timeout: 20000 });
  const alert = await page.$(".alert");
  assert(!alert, `reopening after a restart: ${alert && (await alert.innerText())}`);
  assert((await page.$$(".track")).length === 2, "both tracks shown");
});

test("the key is in no request, page or storage of the page", async () => {
  const leaked = sent.filter((r) => JSON.stringify(r).includes(emu.key));
  assert(leaked.length === 0, `the key went out with ${leaked.map((r) => r.url).join(", ")}`);
  assert(!sent.some((r) => r.headers.authorization), "no request of the page carries an Authorization header");
  const html = await page.content();
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  assert(!html.includes(emu.key) && !storage.includes(emu.key), "the key is in the page or its storage");
  assert(!emu.companionLog().includes(emu.key), "the companion logged the key");
});

test("no console errors", async () => {
  assert(consoleErrors.length === 0, consoleErrors.join("\n"));
});

await runTests(async () => {
  await chromium.close();
  await new Promise((r) => (refusing ? refusing.close(r) : r()));
  await emu.stop();
});
