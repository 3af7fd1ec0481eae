// Shared by the e2e scripts: the emulator (the one xtask started, or our own), the packed tarball
// installed into fresh projects, a static server, headless Chromium, and node's test runner (each
// script is a `node --test` file; its tests run in order).
import { spawn, execFile } from "node:child_process";
import { createReadStream, existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, extname, join, normalize, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { after, test as nodeTest } from "node:test";
import { promisify } from "node:util";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const TOOLS = join(ROOT, "tests", "e2e");
export const PKG = process.env.TUNESMITH_PKG ?? join(ROOT, "pkg");
export const CHROMIUM = process.env.TUNESMITH_CHROMIUM ?? "/usr/bin/chromium";
export const SCREENSHOTS = join(ROOT, "target", "e2e-screenshots");
export const TEST_KEY = "ts-test-key";

const run = promisify(execFile);

/** Runs a command; its output is shown only when it fails. */
export async function sh(cmd, args, options = {}) {
  try {
    return await run(cmd, args, { maxBuffer: 64 * 1024 * 1024, ...options });
  } catch (error) {
    error.message = `${cmd} ${args.join(" ")} failed:\n${error.stdout ?? ""}\n${error.stderr ?? ""}`;
    throw error;
  }
}

// ---- Tools (tests/e2e/package.json), installed once and kept between runs --------------------------

/** `npm ci` in tests/e2e when its lockfile changed since the last install. */
/** The repository's npm tools (one root lockfile), installed when `cargo xtask test` has not yet. */
export async function ensureTools() {
  const lock = await readFile(join(ROOT, "package-lock.json"), "utf8");
  const stamp = join(ROOT, "node_modules", ".installed-lock");
  const installed = await readFile(stamp, "utf8").catch(() => "");
  if (installed !== lock) {
    console.log("installing the repository's npm tools (npm ci)…");
    await sh("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: ROOT });
    await writeFile(stamp, lock);
  }
  const require = createRequire(join(TOOLS, "package.json"));
  return {
    bin: (pkg, rel) => join(dirname(require.resolve(`${pkg}/package.json`)), rel),
    import: (pkg) => import(pathToFileURL(require.resolve(pkg)).href),
  };
}

// ---- The emulator ---------------------------------------------------------------------------------

/**
 * The emulator to test against: the one `cargo xtask test` started (env), unless `own` asks for a
 * private one (e.g. with `--www` and slower stages), which is stopped by `stop()`.
 */
export async function emulator({ own = false, args = [] } = {}) {
  const music = process.env.TUNESMITH_TEST_MUSIC_URL;
  const upload = process.env.TUNESMITH_TEST_UPLOAD_URL;
  if (!own && music && upload) {
    return { music, upload, key: process.env.TUNESMITH_TEST_API_KEY ?? TEST_KEY, stop: async () => {} };
  }
  const bin = join(process.env.CARGO_TARGET_DIR ?? join(ROOT, "target"), "release", "tunesmith-emulator");
  if (!existsSync(bin)) {
    console.log("building the emulator…");
    await sh("cargo", ["build", "--quiet", "-p", "tunesmith-emulator", "--release"], { cwd: ROOT });
  }
  const key = TEST_KEY;
  const child = spawn(bin, [
    "--music-addr", "127.0.0.1:0", "--upload-addr", "127.0.0.1:0", "--rate-limit", "0",
    "--callback-retry-delay-ms", "100", "--api-key", key, ...args,
  ], { stdio: ["ignore", "pipe", "pipe"] });
  const stderr = [];
  child.stderr.on("data", (chunk) => stderr.push(chunk));
  const ready = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("the emulator did not print its ready line in 30 s")), 30000);
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const m = /ready music=(\S+) upload=(\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ music: m[1].replace(/\/$/, ""), upload: m[2].replace(/\/$/, "") });
      }
    });
    child.on("exit", (code) => reject(new Error(`the emulator exited (${code}): ${Buffer.concat(stderr)}`)));
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGINT");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  process.on("exit", () => child.exitCode === null && child.kill("SIGKILL"));
  return { ...ready, key, stop };
}

/**
 * The demo page as `cargo xtask demo` serves it: www/ and pkg/ copied into a fresh folder, served
 * by an emulator of our own (`--www`) with the given stage delay; with `companion`, the page talks
 * to the demo's own companion (xtask/src/demo-companion.mjs, which holds the key) as it does under
 * `cargo xtask demo`. Stopped by `stop()`; `companionLog()` is what the companion printed, and
 * `restartCompanion()` restarts it on the same port and store.
 */
export async function demoSite({ stageDelayMs = 2500, args = [], companion = false } = {}) {
  const site = await mkdtemp(join(tmpdir(), "tunesmith-demo-site-"));
  await cp(join(ROOT, "www"), site, { recursive: true });
  await cp(PKG, join(site, "pkg"), { recursive: true });
  const emu = await emulator({ own: true, args: ["--www", site, "--stage-delay-ms", String(stageDelayMs), ...args] });
  if (!companion) return { ...emu, site };
  const port = await freePort();
  const env = {
    ...process.env,
    TUNESMITH_PKG: PKG,
    COMPANION_PORT: String(port),
    COMPANION_API_KEY: emu.key,
    COMPANION_MUSIC_URL: emu.music,
    COMPANION_UPLOAD_URL: emu.upload,
    COMPANION_PAGE_ORIGINS: emu.music,
    // The test's own (outside the served site): never the state of the user's `cargo xtask demo`.
    COMPANION_STORE_FILE: join(site, "..", `${basename(site)}-companion.json`),
  };
  const output = [];
  let running = await demoCompanion(env, output);
  const demoUrl = `http://127.0.0.1:${port}/demo`;
  // What `cargo xtask demo` writes beside the page.
  await writeFile(join(site, "companion.json"), JSON.stringify({ companionUrl: running.url, demoUrl }));
  process.on("exit", () => running.child.exitCode === null && running.child.kill("SIGKILL"));
  return {
    ...emu, site, companionUrl: running.url, demoUrl, companionLog: () => output.join(""),
    /** Stops the companion as Ctrl-C does, and starts it again on the same port and store. */
    restartCompanion: async () => {
      await running.stop();
      running = await demoCompanion(env, output);
    },
    stop: async () => {
      await running.stop();
      await emu.stop();
    },
  };
}

/** The demo's companion (xtask/src/demo-companion.mjs) once it printed its ready line. */
async function demoCompanion(env, output) {
  const child = spawn("node", [join(ROOT, "xtask", "src", "demo-companion.mjs")], { env, stdio: ["ignore", "pipe", "pipe"] });
  child.stderr.on("data", (chunk) => output.push(String(chunk)));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const url = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the demo's companion did not start in 30 s: ${output.join("")}`)), 30000);
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const m = /^ready (\S+)/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`the demo's companion exited (${code}): ${output.join("")}`)));
  });
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGINT");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  return { child, url, stop };
}

/** A free loopback port. */
export async function freePort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

// ---- The package, as a user gets it --------------------------------------------------------------

/** `npm pack` of pkg/ into a fresh folder; returns the tarball's path and size. */
export async function packTarball() {
  if (!existsSync(join(PKG, "package.json"))) throw new Error(`no package in ${PKG}: run cargo xtask build`);
  const dest = await mkdtemp(join(tmpdir(), "tunesmith-pack-"));
  const { stdout } = await sh("npm", ["pack", "--json", "--pack-destination", dest], { cwd: PKG });
  const [info] = JSON.parse(stdout);
  const tarball = join(dest, info.filename);
  return { tarball, size: (await stat(tarball)).size, unpackedSize: info.unpackedSize, files: info.files.map((f) => f.path) };
}

/** A fresh project folder with `files` written and the tarball (or a folder) installed as a
 * dependency, `npm install` given `npmArgs` too. */
export async function freshProject(name, tarball, files, extra = {}, npmArgs = []) {
  const dir = await mkdtemp(join(tmpdir(), `tunesmith-${name}-`));
  const pkg = { name: `tunesmith-${name}-check`, private: true, type: "module", dependencies: { tunesmith: `file:${tarball}` }, ...extra };
  await writeFile(join(dir, "package.json"), JSON.stringify(pkg, null, 2));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await sh("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", ...npmArgs], { cwd: dir });
  return dir;
}

// ---- Static server and browser ----------------------------------------------------------------------

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
  ".wasm": "application/wasm", ".json": "application/json", ".svg": "image/svg+xml", ".map": "application/json",
};

/** Serves `dir` on a free loopback port (another origin than the emulator: CORS is exercised);
 * `types` replaces the content type of some extensions (a server that does not know `.wasm`). */
export async function serveStatic(dir, { types = {} } = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    // Browsers ask for one unprompted; a 404 would be a console error in the page under test.
    if (path === "/favicon.ico") return res.writeHead(204).end();
    let file = join(dir, path);
    if (!file.startsWith(dir)) return res.writeHead(403).end();
    try {
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      await stat(file);
    } catch {
      return res.writeHead(404).end("not found");
    }
    const type = types[extname(file)] ?? TYPES[extname(file)] ?? "application/octet-stream";
    res.writeHead(200, { "content-type": type, "cache-control": "no-store" });
    createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

/** Serves `html` at `/` and the package in `pkgDir` at `/pkg/` on a free loopback port, another
 * origin than the emulator (so CORS is exercised); for scripts that drive the package in a page. */
export async function servePackagePage(pkgDir, html) {
  const root = normalize(pkgDir);
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    if (path === "/") return res.writeHead(200, { "content-type": "text/html" }).end(html);
    const file = normalize(join(root, path.replace(/^\/pkg\//, "/")));
    if (!path.startsWith("/pkg/") || !file.startsWith(root)) return res.writeHead(404).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

/** The Chromium flags of TOOLCHAIN.md, plus autoplay without a gesture (the demo plays the first track). */
export const CHROMIUM_ARGS = [
  "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--autoplay-policy=no-user-gesture-required",
];

export async function browser(tools) {
  const mod = await tools.import("playwright-core");
  const chromium = mod.chromium ?? mod.default.chromium;
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * The demo's studio as the e2e suites look at it: Chromium, one 1360x900 page with its console
 * errors collected, and `shotOf(selector, name)`, a screenshot of one panel into SCREENSHOTS.
 */
export async function studioPage(tools) {
  await mkdir(SCREENSHOTS, { recursive: true });
  const chromium = await browser(tools);
  const context = await chromium.newContext({ viewport: { width: 1360, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const shotOf = (selector, name) => page.locator(selector).screenshot({ path: join(SCREENSHOTS, name) });
  return { chromium, page, consoleErrors: watchConsole(page), shotOf };
}

/** Collects a page's console errors and uncaught exceptions. */
export function watchConsole(page) {
  const errors = [];
  page.on("console", (msg) => msg.type() === "error" && errors.push(`console: ${msg.text()}`));
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  return errors;
}

// ---- Runner ---------------------------------------------------------------------------------------------

/** A test of this file, run by node's test runner after the ones registered before it. */
export function test(name, fn) {
  nodeTest(name, () => fn());
}

export function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/** Registers `cleanup` to run once the file's tests have run (`node --test --test-force-exit`
 * ends the process after it, whatever handles are left open). */
export function runTests(cleanup = async () => {}) {
  after(cleanup);
}

/** A 16-bit mono WAV, `seconds` long at `rate` samples a second: `sample(t)` at each time `t` (s). */
export function pcmWav(seconds, sample, rate = 22050) {
  const n = Math.round(rate * seconds);
  const buf = Buffer.alloc(44 + n * 2);
  buf.write("RIFF", 0); buf.writeUInt32LE(36 + n * 2, 4); buf.write("WAVEfmt ", 8);
  buf.writeUInt32LE(16, 16); buf.writeUInt16LE(1, 20); buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24); buf.writeUInt32LE(rate * 2, 28); buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34); buf.write("data", 36); buf.writeUInt32LE(n * 2, 40);
  for (let i = 0; i < n; i++) buf.writeInt16LE(Math.round(sample(i / rate)), 44 + i * 2);
  return buf;
}

/** A real audio file: `seconds` of a 440 Hz tone with vibrato, 16-bit mono WAV. */
export function wav(seconds, rate = 22050) {
  return pcmWav(seconds, (t) => 9000 * Math.sin(2 * Math.PI * 440 * t + 3 * Math.sin(2 * Math.PI * 5 * t)), rate);
}

/** A small audio file: `seconds` of a plain 330 Hz tone at 8 kHz, 16-bit mono WAV. */
export function smallWav(seconds) {
  return pcmWav(seconds, (t) => 8000 * Math.sin(2 * Math.PI * 330 * t), 8000);
}

export { cp, join, mkdtemp, readFile, readdir, rm, tmpdir, writeFile };
