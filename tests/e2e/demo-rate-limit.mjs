// The demo's credits strip under the service's rate limit, in headless Chromium: the page refreshes
// the key's credits after every create, so a quick clicker's refreshes run into the music host's
// rate limit. A refused refresh says nothing about the connection: no alert, the strip not marked
// as failing, and the figure read again once the wait the answer asked for has passed. Runs against
// an emulator of its own whose rate limit is two requests in its 10 s window.
import { assert, browser, demoSite, ensureTools, runTests, test, watchConsole } from "./_lib.mjs";

const tools = await ensureTools();
const emu = await demoSite({ stageDelayMs: 1500, args: ["--rate-limit", "2"] });

const chromium = await browser(tools);
const page = await chromium.newPage();
const consoleErrors = watchConsole(page);

// From the start of every load: each alert the page shows, and each time the strip says "error".
await page.addInitScript(() => {
  const seen = (window.__seen = []);
  new MutationObserver((changes) => {
    for (const change of changes) {
      if (change.type === "attributes" && change.target.id === "conn" && change.target.dataset.state === "error") {
        seen.push(`#conn error: ${document.querySelector("#conn-text")?.textContent}`);
      }
      for (const node of change.addedNodes ?? []) {
        if (node.nodeType !== 1) continue;
        for (const alert of [node, ...node.querySelectorAll("*")]) {
          if (/(^|\s)alert(\s|$)/.test(alert.className)) seen.push(`alert: ${alert.textContent}`);
        }
      }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"] });
});

/** The emulator's answers to getCredits that were its rate limit (code 430). */
async function refusedCredits() {
  const { requests } = await (await fetch(`${emu.music}/_emulator/requests`)).json();
  return requests.filter((r) => r.op === "getCredits" && r.code === 430).length;
}

test("a credits refresh refused by the rate limit shows no alert, and the figure comes back after the wait", async () => {
  await page.goto(`${emu.music}/?key=${emu.key}`);
  await page.waitForSelector("#conn[data-state=ok]", { timeout: 20000 });
  // Loads in a row, each refreshing the credits, until the emulator refuses one with its rate limit.
  for (let i = 0; i < 6 && (await refusedCredits()) === 0; i++) {
    await page.reload();
    await page.waitForSelector("body[data-ready=true]");
  }
  assert((await refusedCredits()) > 0, "the emulator never refused a credits refresh: the rate limit was not reached");
  // The figure is read again once the wait has passed (the window is 10 s).
  await page.waitForSelector("#conn[data-state=ok]", { timeout: 25000 });
  const credits = await page.textContent("#credits");
  assert(/\d/.test(credits), `credits shown: ${credits}`);
  const seen = await page.evaluate(() => window.__seen);
  assert(seen.length === 0, `the rate limit was shown as a failure:\n${seen.join("\n")}`);
});

test("no console errors", async () => {
  assert(consoleErrors.length === 0, consoleErrors.join("\n"));
});

await runTests(async () => {
  await chromium.close();
  await emu.stop();
});
