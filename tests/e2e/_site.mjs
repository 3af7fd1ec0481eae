// The demo as a static site (pkg/site/, written by `cargo xtask build`), for the site*.mjs suites:
// a private copy of it with the given stage delay, served by a plain static file server (which
// knows nothing of the service: the site's service worker is the service), and the DevTools
// protocol's controls of that worker.
import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PKG, serveStatic } from "./_lib.mjs";

/**
 * A copy of pkg/site/ served on a free loopback port, its emulator's stages `stageDelayMs` apart,
 * with the emulator's flags `args` (companion.json's `emulator.args`).
 */
export async function staticSite({ stageDelayMs = 1500, args = [] } = {}) {
  const built = join(PKG, "site");
  if (!existsSync(join(built, "sw.js"))) throw new Error(`no site in ${built}: run cargo xtask build`);
  const site = await mkdtemp(join(tmpdir(), "tunesmith-static-site-"));
  await cp(built, site, { recursive: true });
  const config = JSON.parse(await readFile(join(site, "companion.json"), "utf8"));
  config.emulator = { ...config.emulator, stageDelayMs, args: [...(config.emulator?.args ?? []), ...args] };
  await writeFile(join(site, "companion.json"), JSON.stringify(config));
  const server = await serveStatic(site);
  return { site, url: server.url, stop: () => server.close() };
}

/** The DevTools protocol of `page`'s target: stops its service workers as an idle browser does. */
export async function workerControls(page) {
  const cdp = await page.context().newCDPSession(page);
  /** Every running status the site's worker went through, in order. */
  const statuses = [];
  cdp.on("ServiceWorker.workerVersionUpdated", ({ versions }) => {
    for (const v of versions) if (statuses.at(-1) !== v.runningStatus) statuses.push(v.runningStatus);
  });
  await cdp.send("ServiceWorker.enable");
  return {
    statuses,
    stopAll: () => cdp.send("ServiceWorker.stopAllWorkers"),
  };
}

/** Runs `fetch(url, init)` in the page (through its service worker); `{ status, json, text }`. */
export async function pageFetch(page, url, init = {}) {
  return page.evaluate(async ([u, i]) => {
    const res = await fetch(u, i);
    const text = await res.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      // Not JSON.
    }
    return { status: res.status, type: res.headers.get("content-type"), json, text: json ? null : text.slice(0, 200) };
  }, [url, init]);
}
