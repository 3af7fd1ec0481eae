// `npx tunesmith demo` from the installed package: it serves the package's site/ on a local port and
// prints its URL; the page there connects to the service in its own service worker and a task runs
// through every stage to `complete`.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { assert, browser, ensureTools, freshProject, packTarball, runTests, test, watchConsole } from "./_lib.mjs";

const tools = await ensureTools();
const { tarball, files } = await packTarball();
const chromium = await browser(tools);
let child = null;

test("the packed package carries the site: the page, the worker, the emulator's wasm", async () => {
  for (const f of ["site/index.html", "site/boot.js", "site/sw.js", "site/emulator.wasm", "site/companion.json", "cli/demo.js"]) {
    assert(files.includes(f), `the tarball has ${f}`);
  }
});

let url;
test("npx tunesmith demo prints the URL it serves the site on", async () => {
  const dir = await freshProject("site-npx", tarball, {});
  // A process group of its own: npx runs node under it, and the cleanup stops both.
  child = spawn("npx", ["--no-install", "tunesmith", "demo", "--port", "0"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const err = [];
  child.stderr.on("data", (c) => err.push(String(c)));
  url = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`no URL printed in 30 s: ${out} ${err.join("")}`)), 30000);
    child.stdout.on("data", (c) => {
      out += c;
      const m = /open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`tunesmith demo exited (${code}): ${err.join("")}`)));
  });
  const bad = await fetch(`${url}../../etc/passwd`.replace("/../..", "/%2e%2e/%2e%2e"));
  assert(bad.status === 404, `no file outside the site: ${bad.status}`);
});

test("the page it serves runs a task to complete, with no server but the static one", async () => {
  const page = await (await chromium.newContext()).newPage();
  const errors = watchConsole(page);
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 60000 });
  await page.waitForSelector("#conn[data-state=ok]", { timeout: 30000 });
  await page.click("#sample");
  await page.waitForSelector("#file-details:not([hidden])", { timeout: 30000 });
  await page.click("#go");
  await page.waitForFunction(() => document.querySelector("#timeline li[data-stage=complete]")?.dataset.state === "done" || document.querySelector(".alert"), null, { timeout: 60000 });
  assert(!(await page.$(".alert")), `the page showed an error: ${await page.$eval(".alert", (a) => a.innerText).catch(() => "")}`);
  assert(errors.length === 0, `console errors: ${errors.join("\n")}`);
});

// The file must end when its tests do: the server's whole group is stopped (SIGINT, then SIGKILL
// after 5 s), never waited on without a bound (npx left its node child serving, and the file
// timed out after its tests had passed).
runTests(async () => {
  if (child?.exitCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    const signal = (name) => {
      try {
        process.kill(-child.pid, name);
      } catch {
        child.kill(name);
      }
    };
    signal("SIGINT");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) signal("SIGKILL");
  }
  await chromium?.close();
});
