// The demo page end to end in headless Chromium: upload a real WAV (progress to 100%), a validation
// error shown next to its field with nothing sent, add-instrumental through every stage, the first
// track heard, both covers loaded, the WAV link followed, the callbacks panel filled, a service error
// explained, keyboard reachability, phone layout, and no console errors. Screenshots go to
// target/e2e-screenshots/.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { SCREENSHOTS, assert, browser, demoSite, ensureTools, runTests, test, watchConsole, wav, writeFile } from "./_lib.mjs";

const tools = await ensureTools();
// Our own emulator: it serves the page (www/ + pkg/), with stages slow enough to watch each one.
const emu = await demoSite({ stageDelayMs: 2500 });
const site = emu.site;
await mkdir(SCREENSHOTS, { recursive: true });

const chromium = await browser(tools);
const context = await chromium.newContext({ viewport: { width: 1360, height: 900 }, deviceScaleFactor: 1 });
const page = await context.newPage();
const consoleErrors = watchConsole(page);
const shot = (name) => page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });

const wavPath = join(site, "..", `hum-${Date.now()}.wav`);
// Long enough to be still playing when every stage has passed (the first track plays from its stage on).
await writeFile(wavPath, wav(12));

async function apiRequests(path) {
  const res = await fetch(`${emu.music}/_emulator/requests`);
  const { requests } = await res.json();
  return requests.filter((r) => r.path.endsWith(path));
}

test("the page loads, connects and shows the credits", async () => {
  await page.goto(`${emu.music}/?key=${emu.key}`);
  await page.waitForSelector("body[data-ready=true]");
  await page.waitForSelector("#conn[data-state=ok]", { timeout: 15000 });
  const credits = await page.textContent("#credits");
  assert(/\d/.test(credits), `credits shown: ${credits}`);
  const upload = await page.inputValue("[name=uploadUrl]");
  assert(upload === emu.upload, `upload URL discovered: ${upload} (emulator ${emu.upload})`);
  await shot("1-start.png");
});

test("the audio file uploads with progress to 100% and its details", async () => {
  await page.setInputFiles("#file", wavPath);
  await page.waitForSelector("#file-details:not([hidden])", { timeout: 30000 });
  const pct = await page.getAttribute("#upload-progress .bar", "aria-valuenow");
  assert(pct === "100", `progress ${pct}`);
  assert((await page.textContent("#upload-text")).includes("100%"), "100% shown");
  const details = await page.textContent("#file-details");
  for (const word of ["Size", "audio/wav", "Expires", "in 3 days"]) assert(details.includes(word), `details show ${word}: ${details}`);
});

test("a ValidationError shows next to its field, and nothing is sent", async () => {
  const before = (await apiRequests("/add-instrumental")).length;
  await page.fill("[name=title]", "");
  await page.click("#go");
  await page.waitForSelector("#err-title:not(:empty)");
  assert((await page.getAttribute("[name=title]", "aria-invalid")) === "true", "title marked invalid");
  assert(await page.evaluate(() => document.activeElement?.name === "title"), "focus moved to the field");
  assert((await apiRequests("/add-instrumental")).length === before, "no request sent");
  await shot("2-validation.png");
  await page.fill("[name=title]", "Night drive");
});

let started;
test("add-instrumental goes through every stage, with times", async () => {
  started = Date.now();
  await page.click("#go");
  for (const stage of ["pending", "text", "first", "complete"]) {
    await page.waitForFunction((s) => {
      const li = document.querySelector(`#timeline li[data-stage=${s}]`);
      return li && ["active", "done"].includes(li.dataset.state) && /\+\d/.test(li.querySelector("time").textContent);
    }, stage, { timeout: 60000 });
    if (stage === "first") await shot("3-first-track.png");
  }
  const states = await page.$$eval("#timeline li", (lis) => lis.map((li) => li.dataset.state));
  assert(states.every((s) => s === "done"), `every stage done, none skipped: ${states}`);
  assert((await page.$$(".track")).length === 2, "two tracks");
  const meta = await page.$eval(".track", (t) => [t.querySelector(".t-title").textContent, t.querySelector(".t-tags").textContent, t.querySelector(".t-dur").textContent]);
  assert(meta[0] && meta[1] && /\d+:\d\d/.test(meta[2]), `title, tags, duration: ${meta}`);
});

test("the first track is heard: its audio element's time advances", async () => {
  await page.waitForFunction(() => {
    const audio = document.querySelector(".track audio");
    return audio && !audio.paused && audio.currentTime > 0.5;
  }, null, { timeout: 20000 });
});

test("covers: generated, polled, both images loaded", async () => {
  await page.click("#covers-btn");
  await page.waitForFunction(() => {
    const imgs = [...document.querySelectorAll("#covers img")];
    return imgs.length === 2 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  }, null, { timeout: 60000 });
});

test("WAV conversion gives a download link that answers 200 audio/wav", async () => {
  await page.click(".track .t-actions button:has-text('Convert to WAV')");
  const link = await page.waitForSelector(".wav-link", { timeout: 60000 });
  const href = await link.getAttribute("href");
  const res = await page.request.get(href);
  assert(res.status() === 200, `WAV link status ${res.status()}`);
  assert(/audio\/(wav|x-wav|wave)/.test(res.headers()["content-type"]), `content-type ${res.headers()["content-type"]}`);
  const body = await res.body();
  assert(body.subarray(0, 4).toString() === "RIFF", "a RIFF file");
});

test("the callbacks panel fills with the service's deliveries", async () => {
  await page.waitForFunction(() => {
    const text = document.querySelector("#callbacks").textContent;
    return ["text", "first", "complete"].every((s) => text.includes(s)) && /wav/i.test(text) && /cover/i.test(text);
  }, null, { timeout: 30000 });
  const polled = await page.textContent("#states");
  assert(polled.includes("complete"), "polled states listed");
  await page.mouse.move(0, 0);
  await shot("4-done-desktop.png");
});

test("a task reopened after a reload shows its covers and WAV again, and offers neither to be paid for again", async () => {
  const taskId = await page.textContent("#task-id");
  const covers = await page.$$eval("#covers img", (imgs) => imgs.map((i) => i.src));
  const wavHref = await page.getAttribute(".wav-link", "href");
  const wavTrack = await page.$eval(".wav-link", (a) => a.closest(".track").dataset.id);
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  await page.click(`#history li[data-id="${taskId}"] button`);
  await page.waitForFunction((id) => document.querySelector("#task-id").textContent === id
    && document.querySelectorAll(".track").length === 2, taskId, { timeout: 20000 });
  const shown = await page.$$eval("#covers img", (imgs) => imgs.map((i) => i.src));
  assert(shown.length === 2 && shown.every((src, i) => src === covers[i]), `covers after the reload: ${shown}`);
  assert(await page.isDisabled("#covers-btn"), "covers offered again");
  assert(/made earlier/.test(await page.textContent("#covers-status")), `status: ${await page.textContent("#covers-status")}`);
  const card = `.track[data-id="${wavTrack}"]`;
  assert((await page.getAttribute(`${card} .wav-link`, "href")) === wavHref, "the WAV link is back");
  assert(await page.isHidden(`${card} button:has-text('Convert to WAV')`), "WAV conversion offered again");
  await page.mouse.move(0, 0);
  await page.locator("#task-card").screenshot({ path: join(SCREENSHOTS, "3b-reopened-covers-wav.png") });
});

test("a service error is explained in plain words", async () => {
  await page.click("#settings summary");
  await page.selectOption("[name=emulateCode]", "455");
  await page.click("#settings-form button[type=submit]");
  await page.click("button.boost");
  const alert = await page.waitForSelector(".alert.kind-maintenance", { timeout: 15000 });
  const text = await alert.textContent();
  assert(/maintenance/i.test(text) && /try again/i.test(text), `message: ${text}`);
  await shot("5-error.png");
  await page.click("#settings summary");
});

test("keyboard: the file picker, the operations and the create button are reachable with Tab", async () => {
  await page.evaluate(() => document.activeElement?.blur());
  await page.evaluate(() => window.scrollTo(0, 0));
  const reached = new Set();
  for (let i = 0; i < 80 && reached.size < 3; i++) {
    await page.keyboard.press("Tab");
    const id = await page.evaluate(() => document.activeElement?.id || document.activeElement?.name || "");
    if (["file", "go"].includes(id) || id.startsWith("op-")) reached.add(id.startsWith("op-") ? "op" : id);
  }
  assert(reached.size === 3, `reached by Tab: ${[...reached]}`);
});

test("the page reads well on a phone (no horizontal scroll)", async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert(overflow <= 0, `horizontal overflow of ${overflow}px`);
  await shot("6-phone.png");
});

test("no console errors", async () => {
  assert(consoleErrors.length === 0, consoleErrors.join("\n"));
});

await runTests(async () => {
  console.log(`screenshots in ${SCREENSHOTS}`);
  await chromium.close();
  await emu.stop();
});
