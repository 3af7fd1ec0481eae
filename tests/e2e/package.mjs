// The npm tarball as users get it: `npm pack` of pkg/, installed into fresh projects, each run
// against the emulator: Node 20 ESM, a plain page with <script type="module">, a Web Worker, a Vite
// build in Chromium; publint on the installed package; tsc --noEmit --strict on a TypeScript consumer.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { PKG, ROOT, assert, browser, emulator, ensureTools, freePort, freshProject, packTarball, runTests, serveStatic, sh, test, watchConsole, wav } from "./_lib.mjs";

const tools = await ensureTools();
const emu = await emulator();
const pack = await packTarball();
const smokeSource = await readFile(join(ROOT, "tests", "e2e", "_smoke.js"), "utf8");
const { EXPECTED } = await import("./_smoke.js");
const env = { music: emu.music, upload: emu.upload, key: emu.key };
const query = new URLSearchParams(env).toString();
let chromium;
const closers = [];

console.log(`tarball ${pack.tarball}: ${pack.size} B packed, ${pack.unpackedSize} B unpacked, ${pack.files.length} files`);

function sameAsExpected(result, where) {
  for (const [k, v] of Object.entries(EXPECTED)) {
    assert(JSON.stringify(result?.[k]) === JSON.stringify(v), `${where}: ${k} = ${JSON.stringify(result?.[k])}, expected ${JSON.stringify(v)} (all: ${JSON.stringify(result)})`);
  }
  assert(typeof result.credits === "number", `${where}: credits ${result.credits}`);
}

/**
 * Opens `url` in Chromium and waits for the page to publish `window.__result` (or an error). Every
 * URL the page requested is pushed to `requested`, when given.
 */
async function resultOfPage(url, where, requested) {
  chromium ??= await browser(tools);
  const page = await chromium.newPage();
  const errors = watchConsole(page);
  if (requested) page.on("request", (r) => requested.push(r.url()));
  try {
    await page.goto(url);
    const handle = await page.waitForFunction(() => window.__result ?? window.__error, null, { timeout: 90000 });
    const value = await handle.jsonValue();
    if (typeof value === "string") throw new Error(`${where}: ${value}`);
    assert(errors.length === 0, `${where}: console errors: ${errors.join("; ")}`);
    return value;
  } finally {
    await page.close();
  }
}

const BROWSER_MAIN = (importLine) => `${importLine}
import { smoke } from "./smoke.js";
const env = Object.fromEntries(new URLSearchParams(location.search));
smoke(tunesmith, env).then((r) => { window.__result = r; }, (e) => { window.__error = String(e?.stack ?? e); });
`;

test("the tarball holds the package files and nothing else", async () => {
  const wanted = ["package.json", "README.md", "index.js", "full.js", "index.d.ts", "api.js", "push.js", "follow.js", "node.js", "node.d.ts", "workerd.js", "errors.d.ts", "tunesmith.js", "tunesmith.d.ts", "tunesmith_bg.wasm", "tunesmith_full_bg.wasm", "server/index.js", "server/types/index.d.ts", "server/routes.js", "media.js", "methods.generated.js", "operations.generated.js", "mcp/index.js", "mcp/index.d.ts", "cli/tunesmith.js"];
  for (const f of wanted) assert(pack.files.includes(f), `missing ${f}: ${pack.files.join(", ")}`);
  assert(pack.files.filter((f) => /^[^/]+\.wasm$/.test(f)).length === 2, "two .wasm of the client: the browser entry's, and the full one");
  // tunesmith/emulator: the emulator's one wasm build and its Node entries (issue 39).
  for (const f of ["emulator/index.js", "emulator/index.d.ts", "emulator/tunesmith_emulator_bg.wasm"]) assert(pack.files.includes(f), `missing ${f}`);
  assert(pack.files.filter((f) => f.startsWith("emulator/") && f.endsWith(".wasm")).length === 1, "one wasm of the emulator");
  // The demo as a static site (issue 40): its service worker at the site's root.
  assert(pack.files.includes("site/index.html") && pack.files.includes("site/sw.js"), `the static site: ${pack.files.filter((f) => f.startsWith("site/")).join(", ")}`);
  // The glue's snippets (src/js/imports.js, errors.js) are bundled into tunesmith.js: no snippets/.
  // tunesmith/server, tunesmith/mcp and the CLI: one module per concern under their folders.
  const stray = pack.files.filter((f) => !wanted.includes(f) && !/^(server|mcp|cli|emulator)\/[\w-]+\.js$/.test(f) && !/^(server\/types|mcp|emulator)\/[\w-]+\.d\.ts$/.test(f) && !/^emulator\/[\w-]+_bg\.wasm$/.test(f) && !f.startsWith("site/"));
  assert(stray.length === 0, `unexpected files: ${stray.join(", ")}`);
});

test("Node 20 ESM script: import tunesmith, no init, real calls", async () => {
  const dir = await freshProject("node", pack.tarball, {
    "smoke.js": smokeSource,
    "main.js": `import * as tunesmith from "tunesmith";\nimport { smoke } from "./smoke.js";\nconsole.log(JSON.stringify(await smoke(tunesmith, JSON.parse(process.argv[2]))));\n`,
  });
  const { stdout } = await sh("node", ["main.js", JSON.stringify(env)], { cwd: dir });
  sameAsExpected(JSON.parse(stdout.trim().split("\n").pop()), "node");
});

test("Node 20: tunesmith/server resolves from an installed tarball and serves a request", async () => {
  const dir = await freshProject("server", pack.tarball, {
    "main.js": `import { createCompanion, toNodeListener, memoryStore, redisStore } from "tunesmith/server";
const handler = createCompanion({ apiKey: "k", publicUrl: "http://127.0.0.1/ts", authorize: () => null });
const r = await handler(new Request("http://127.0.0.1/ts/music/api/v1/generate/credit"));
console.log(JSON.stringify([typeof toNodeListener, typeof memoryStore, typeof redisStore, r.status]));
await handler.close();
`,
  });
  const { stdout } = await sh("node", ["main.js"], { cwd: dir });
  const got = stdout.trim().split("\n").pop();
  assert(got === JSON.stringify(["function", "function", "function", 401]), got);
});

test("plain page with <script type=module> and an import map, served from another origin", async () => {
  const dir = await freshProject("plain", pack.tarball, {
    "smoke.js": smokeSource,
    "index.html": `<!doctype html><meta charset="utf-8"><title>plain</title>
<script type="importmap">{ "imports": { "tunesmith": "./node_modules/tunesmith/index.js" } }</script>
<script type="module">${BROWSER_MAIN('import * as tunesmith from "tunesmith";')}</script>`,
  });
  const server = await serveStatic(dir);
  closers.push(server.close);
  sameAsExpected(await resultOfPage(`${server.url}/?${query}`, "plain page"), "plain page");
});

test("pages: \"tunesmith\" leaves parseCallback out with a typed error, \"tunesmith/full\" reads callbacks", async () => {
  const body = { code: 200, msg: "ok", data: { task_id: "v1", video_url: "http://x/v.mp4" } };
  const script = `import * as tunesmith from "tunesmith";
const body = ${JSON.stringify(body)};
const client = new tunesmith.Client({ apiKey: "${emu.key}", baseUrl: "${emu.music}", dangerouslyAllowBrowser: true });
const credits = (await client.getCredits()).credits;
try { const e = tunesmith.parseCallback(body); window.__result = { credits, family: e.family, stage: e.stage }; }
catch (e) { window.__result = { credits, error: [e instanceof tunesmith.TunesmithError, e.kind, e.message] }; }`;
  const results = {};
  for (const entry of ["index.js", "full.js"]) {
    const dir = await freshProject(`entry-${entry}`, pack.tarball, {
      "index.html": `<!doctype html><meta charset="utf-8"><title>${entry}</title>
<script type="importmap">{ "imports": { "tunesmith": "./node_modules/tunesmith/${entry}" } }</script>
<script type="module">${script}</script>`,
    });
    const server = await serveStatic(dir);
    closers.push(server.close);
    results[entry] = await resultOfPage(`${server.url}/`, entry);
  }
  const { "index.js": page, "full.js": full } = results;
  assert(typeof page.credits === "number" && typeof full.credits === "number", JSON.stringify(results));
  assert(page.error?.[0] === true && page.error[1] === "configuration" && page.error[2].includes("tunesmith/full"), JSON.stringify(page));
  assert(full.family === "video" && full.stage === "complete", JSON.stringify(full));
});

test("the page's loader: a server that sends .wasm as octet-stream, a runtime without instantiateStreaming, a missing module", async () => {
  const script = `try {
  const { Client } = await import("tunesmith");
  const client = new Client({ apiKey: "${emu.key}", baseUrl: "${emu.music}", dangerouslyAllowBrowser: true });
  window.__result = { credits: (await client.getCredits()).credits };
} catch (e) { window.__result = { error: String(e?.message ?? e) }; }`;
  const dir = await freshProject("loader", pack.tarball, {
    "index.html": `<!doctype html><meta charset="utf-8"><title>loader</title>
<script type="importmap">{ "imports": { "tunesmith": "./node_modules/tunesmith/index.js" } }</script>
<script type="module">${script}</script>`,
    "nostream.html": `<!doctype html><meta charset="utf-8"><title>loader</title>
<script type="importmap">{ "imports": { "tunesmith": "./node_modules/tunesmith/index.js" } }</script>
<script type="module">delete WebAssembly.instantiateStreaming;\n${script}</script>`,
  });
  // A runtime without streaming compilation, the server saying application/wasm: compiled whole.
  const typed = await serveStatic(dir);
  closers.push(typed.close);
  const requested = [];
  const unstreamed = await resultOfPage(`${typed.url}/nostream.html`, "no instantiateStreaming", requested);
  assert(typeof unstreamed.credits === "number", JSON.stringify(unstreamed));
  // The glue is one file, its snippets bundled in: fetched once, and nothing under snippets/.
  const ofPackage = requested.filter((u) => u.includes("/node_modules/tunesmith/")).map((u) => u.replace(/^.*\/node_modules\/tunesmith\//, ""));
  assert(ofPackage.filter((f) => f === "tunesmith.js").length === 1 && ofPackage.includes("tunesmith_bg.wasm"), `the page's requests: ${ofPackage.join(", ")}`);
  assert(!ofPackage.some((f) => f.startsWith("snippets/")), `the page fetched a snippet apart: ${ofPackage.join(", ")}`);
  // Without application/wasm, streaming compilation refuses the body: the loader compiles it whole.
  const untyped = await serveStatic(dir, { types: { ".wasm": "application/octet-stream" } });
  closers.push(untyped.close);
  const loaded = await resultOfPage(`${untyped.url}/`, "octet-stream .wasm");
  assert(typeof loaded.credits === "number", JSON.stringify(loaded));
  // A deployment that left the .wasm behind: the import rejects, naming the file and the status.
  await sh("rm", [join(dir, "node_modules", "tunesmith", "tunesmith_bg.wasm")]);
  const missing = await serveStatic(dir);
  closers.push(missing.close);
  chromium ??= await browser(tools);
  const page = await chromium.newPage();
  try {
    await page.goto(`${missing.url}/`);
    const handle = await page.waitForFunction(() => window.__result, null, { timeout: 90000 });
    const { error } = await handle.jsonValue();
    assert(/could not load .*tunesmith_bg\.wasm: HTTP 404/.test(error ?? ""), `missing module: ${error}`);
  } finally {
    await page.close();
  }
});

test("plain page: uploadFile from an <input type=file>, with progress (the README's upload)", async () => {
  const dir = await freshProject("upload", pack.tarball, {
    "upload.js": await readFile(join(ROOT, "tests", "e2e", "_browser-upload.js"), "utf8"),
    "index.html": `<!doctype html><meta charset="utf-8"><title>upload</title>
<script type="importmap">{ "imports": { "tunesmith": "./node_modules/tunesmith/index.js" } }</script>
<input type="file" accept="audio/*"> <progress max="1" value="0"></progress>
<script type="module" src="./upload.js"></script>`,
  });
  const server = await serveStatic(dir);
  closers.push(server.close);
  chromium ??= await browser(tools);
  const page = await chromium.newPage();
  const errors = watchConsole(page);
  try {
    await page.goto(`${server.url}/?${query}`);
    // The module (and its top-level await of the wasm) has run once it flags itself ready.
    await page.waitForFunction(() => window.__ready === true, null, { timeout: 30000 });
    const bytes = wav(6);
    await page.setInputFiles("input[type=file]", { name: "voice.wav", mimeType: "audio/wav", buffer: bytes });
    const result = await (await page.waitForFunction(() => window.__result, null, { timeout: 30000 })).jsonValue();
    assert(result.text.startsWith(`voice.wav: ${bytes.length} bytes, audio/wav, kept until 20`), result.text);
    assert(result.progress === 1, `progress ended at ${result.progress}`);
    assert(errors.length === 0, errors.join("; "));
  } finally {
    await page.close();
  }
});

test("module Web Worker", async () => {
  const dir = await freshProject("worker", pack.tarball, {
    "smoke.js": smokeSource,
    // The worker reads its settings from its own URL: a message posted to it before its module
    // (with the package's top-level await) finished evaluating would find no onmessage yet.
    "worker.js": `import * as tunesmith from "./node_modules/tunesmith/index.js";
import { smoke } from "./smoke.js";
try { postMessage({ result: await smoke(tunesmith, Object.fromEntries(new URLSearchParams(location.search))) }); }
catch (e) { postMessage({ error: String(e?.stack ?? e) }); }`,
    "index.html": `<!doctype html><meta charset="utf-8"><title>worker</title><script type="module">
const worker = new Worker("./worker.js" + location.search, { type: "module" });
worker.onmessage = ({ data }) => { if (data.error) window.__error = data.error; else window.__result = data.result; };
worker.onerror = (e) => { window.__error = "worker error: " + (e.message || "failed to load"); };
</script>`,
  });
  const server = await serveStatic(dir);
  closers.push(server.close);
  sameAsExpected(await resultOfPage(`${server.url}/?${query}`, "worker"), "worker");
});

test("Vite app: vite build, then the built app in Chromium", async () => {
  const dir = await freshProject("vite", pack.tarball, {
    "smoke.js": smokeSource,
    "index.html": `<!doctype html><meta charset="utf-8"><title>vite</title><script type="module" src="/main.js"></script>`,
    "main.js": BROWSER_MAIN('import * as tunesmith from "tunesmith";'),
  });
  await sh("node", [tools.bin("vite", "bin/vite.js"), "build", "--logLevel", "warn"], { cwd: dir });
  const assets = await (await import("node:fs/promises")).readdir(join(dir, "dist", "assets"));
  assert(assets.filter((f) => f.endsWith(".wasm")).length === 1, `one .wasm emitted by Vite: ${assets.join(", ")}`);
  const server = await serveStatic(join(dir, "dist"));
  closers.push(server.close);
  sameAsExpected(await resultOfPage(`${server.url}/?${query}`, "vite"), "vite");
});

// The READMEs' install lines, in Vite's dev server (not only `vite build`): the tarball, and the
// folder with --install-links. A plain folder install is a symlink whose .wasm Vite refuses (403).
test("Vite dev server: the app runs from the tarball, and from the folder installed with --install-links", async () => {
  const { spawn } = await import("node:child_process");
  for (const [how, source, npmArgs] of [["tarball", pack.tarball, []], ["folder", PKG, ["--install-links"]]]) {
    const dir = await freshProject(`vite-dev-${how}`, source, {
      "smoke.js": smokeSource,
      "index.html": `<!doctype html><meta charset="utf-8"><title>vite dev</title><link rel="icon" href="data:,"><script type="module" src="/main.js"></script>`,
      "main.js": BROWSER_MAIN('import * as tunesmith from "tunesmith";'),
    }, {}, npmArgs);
    const port = await freePort();
    const vite = spawn(process.execPath, [tools.bin("vite", "bin/vite.js"), "--host", "127.0.0.1", "--port", String(port), "--strictPort"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let said = "";
    vite.stdout.on("data", (c) => { said += c; });
    vite.stderr.on("data", (c) => { said += c; });
    try {
      const ready = Date.now() + 60000;
      while (!said.includes(`${port}`) && Date.now() < ready && vite.exitCode === null) await new Promise((r) => setTimeout(r, 100));
      assert(said.includes(`${port}`), `vite dev (${how}) did not start:\n${said}`);
      const requested = [];
      sameAsExpected(await resultOfPage(`http://127.0.0.1:${port}/?${query}`, `vite dev (${how})`, requested), `vite dev (${how})`);
      assert(requested.some((u) => u.endsWith(".wasm") || u.includes(".wasm?")), `vite dev (${how}): the page fetched a .wasm: ${requested.join(", ")}`);
    } finally {
      vite.kill();
    }
  }
});

test("publint finds nothing to fix in the installed package", async () => {
  const dir = await freshProject("publint", pack.tarball, {});
  const { publint } = await tools.import("publint");
  const { formatMessage } = await tools.import("publint/utils");
  const pkgDir = join(dir, "node_modules", "tunesmith");
  const { messages } = await publint({ pkgDir, pack: false, strict: true, level: "suggestion" });
  const pkgJson = JSON.parse(await readFile(join(pkgDir, "package.json"), "utf8"));
  const text = messages.map((m) => `${m.type}: ${formatMessage(m, pkgJson) ?? m.code}`);
  assert(messages.length === 0, `publint:\n${text.join("\n")}`);
});

test("TypeScript consumer type-checks with tsc --noEmit --strict", async () => {
  const dir = await freshProject("ts", pack.tarball, {
    "tsconfig.json": JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext", lib: ["es2022", "dom"], types: [], skipLibCheck: false },
      include: ["*.ts"],
    }, null, 2),
    "check.ts": await readFile(join(ROOT, "tests", "e2e", "_consumer.ts"), "utf8"),
  });
  await sh("node", [tools.bin("typescript", "bin/tsc"), "--noEmit", "--strict", "-p", "."], { cwd: dir });
});

await runTests(async () => {
  await chromium?.close();
  for (const close of closers) await close();
  await emu.stop();
});
