// `cargo xtask bench --only bundle`: what a bundler user pays. The packed package is installed into
// a fresh project, and Vite builds two pages of it: one that uses only `uploadFile` and `generate`
// (it imports `Client` alone) and one that imports everything. Each build's files, gzipped, are
// split into what the page loads at start (the entry's chunks and the module) and what it loads
// only on demand (dynamic imports: the companion's push.js), and the two totals compared.
// Env: TUNESMITH_PKG; TUNESMITH_BENCH_SMOKE=1 is accepted (the run is the same, and quick).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ensureTools, freshProject, packTarball, sh } from "../../tests/e2e/_lib.mjs";
import { SMOKE } from "../_lib.mjs";

const PAGES = {
  "uploadFile + generate": `import { Client } from "tunesmith";
const client = new Client({ companionUrl: "/tunesmith" });
document.querySelector("input").addEventListener("change", async (event) => {
  const file = await client.uploadFile(event.target.files[0]);
  const song = await client.generate({ customMode: false, instrumental: true, model: "V5", prompt: \`lo-fi over \${file.fileName}\` }, { wait: true });
  document.body.append(song.tracks.length);
});
`,
  everything: `import * as tunesmith from "tunesmith";
window.tunesmith = tunesmith;
`,
};

const tools = await ensureTools();
const pack = await packTarball();
const files = {};
for (const [i, page] of Object.keys(PAGES).entries()) {
  files[`page${i}/index.html`] = `<!doctype html><meta charset="utf-8"><input type="file"><script type="module" src="./main.js"></script>`;
  files[`page${i}/main.js`] = PAGES[page];
}
const dir = await freshProject("bundle", pack.tarball, files);
const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;

const results = {};
for (const [i, page] of Object.keys(PAGES).entries()) {
  const out = join(dir, `dist${i}`);
  await sh("node", [tools.bin("vite", "bin/vite.js"), "build", `page${i}`, "--outDir", out, "--emptyOutDir", "--manifest", "--logLevel", "warn"], { cwd: dir });
  const manifest = JSON.parse(await readFile(join(out, ".vite", "manifest.json"), "utf8"));
  // At start: the entry and what it imports statically, and every asset (the .wasm) they use.
  const atStart = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || atStart.has(chunk.file)) return;
    atStart.add(chunk.file);
    for (const asset of chunk.assets ?? []) atStart.add(asset);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  const every = new Set(Object.values(manifest).flatMap((c) => [c.file, ...(c.assets ?? [])]));
  const rows = [];
  for (const file of every) {
    const bytes = await readFile(join(out, file));
    rows.push({ file, raw: bytes.length, gzip: gz(bytes), start: atStart.has(file) });
  }
  rows.sort((a, b) => b.gzip - a.gzip);
  if (!rows.some((r) => r.file.endsWith(".wasm") && r.start)) throw new Error(`${page}: no .wasm loaded at start: ${JSON.stringify(rows)}`);
  results[page] = rows;
}

console.log(`bundle: Vite (${JSON.parse(await readFile(tools.bin("vite", "package.json"), "utf8")).version}) builds of the packed package, gzipped bytes`);
for (const [page, rows] of Object.entries(results)) {
  console.log(`  page that imports ${page === "everything" ? "everything" : `Client for ${page}`}:`);
  for (const r of rows) console.log(`    ${r.file.padEnd(44)} ${String(r.raw).padStart(8)} raw ${String(r.gzip).padStart(7)} gzip  ${r.start ? "at start" : "on demand"}`);
  const sum = (pick) => rows.filter(pick).reduce((n, r) => n + r.gzip, 0);
  console.log(`    ${"at start".padEnd(44)} ${String(sum((r) => r.start)).padStart(24)} gzip (js ${sum((r) => r.start && r.file.endsWith(".js"))}, wasm ${sum((r) => r.file.endsWith(".wasm"))})`);
  console.log(`    ${"on demand".padEnd(44)} ${String(sum((r) => !r.start)).padStart(24)} gzip`);
}
const atStart = (page) => results[page].filter((r) => r.start).reduce((n, r) => n + r.gzip, 0);
const [few, all] = Object.keys(PAGES);
const saved = atStart(all) - atStart(few);
console.log(`  the page using only uploadFile and generate loads ${atStart(few)} B at start against ${atStart(all)} B: ${saved} B less (${((saved * 100) / atStart(all)).toFixed(1)}%)`);
console.log("  the .wasm is one module whatever the page uses: a bundler cannot split it, and the glue's Client class carries every method");
if (SMOKE) console.log("  (smoke run)");
process.exit(0);
