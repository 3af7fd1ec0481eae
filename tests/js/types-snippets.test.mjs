// Every ```js snippet of README.md, pkg-template/README.md and docs/*.md compiles under
// `tsc --strict` (checkJs) where it runs: in the test file holding its `// README:NAME:` region,
// against the package under test (TUNESMITH_PKG). Only diagnostics on the region's lines count; the
// rest of a test file is a harness, not something a user copies.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { jsBlocks, regions, testSources } from "./readme/markdown.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PKG = resolve(process.env.TUNESMITH_PKG ?? join(ROOT, "pkg"));
const MODULES = join(ROOT, "node_modules");
const TSC = join(MODULES, "typescript", "bin", "tsc");
const MARKDOWN = [
  "README.md",
  "pkg-template/README.md",
  ...(await readdir(join(ROOT, "docs"))).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
];
// What a snippet's runtime provides beyond Node and the DOM: Bun's global, as much of it as the
// deploy snippet uses (bun-types is not a dependency of the checkout).
const AMBIENT = `declare namespace Bun {
  interface ServeOptions {
    hostname?: string;
    port?: number;
    idleTimeout?: number;
    fetch(request: Request): Response | Promise<Response>;
  }
  interface Server { readonly url: URL; stop(): void }
  function serve(options: ServeOptions): Server;
}
`;

/** The 1-based line span of region `name`'s code in `text` (between its start and end markers). */
function span(text, name) {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.trim().startsWith(`// README:${name}:start`));
  const end = lines.findIndex((l, i) => i > start && l.trim().startsWith(`// README:${name}:end`));
  return { from: start + 2, to: end };
}

let scratch;
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), "types-snippets-"));
});
after(async () => scratch && rm(scratch, { recursive: true, force: true }));

test("every README and docs snippet compiles under tsc --strict (checkJs) in the file that runs it", async () => {
  const sources = await testSources(ROOT);
  const marked = regions(sources);
  const wanted = new Map(); // file -> [{ name, from, to }]
  for (const md of MARKDOWN) {
    for (const block of jsBlocks(await readFile(join(ROOT, md), "utf8"))) {
      const region = block.name && marked.get(block.name);
      if (!region) continue; // readme-snippets.test.mjs reports it
      const text = sources.find((s) => s.path === region.path).text;
      const list = wanted.get(region.path) ?? [];
      if (!list.some((r) => r.name === block.name)) list.push({ name: block.name, ...span(text, block.name) });
      wanted.set(region.path, list);
    }
  }
  assert.ok(wanted.size > 5, "the snippets' files were found");

  // A project where "tunesmith" is the package under test, as after `npm install tunesmith`, and
  // tests/ is reached through a symlink kept as such, so each file resolves its imports from here.
  const dir = join(scratch, "project");
  await mkdir(join(dir, "node_modules"), { recursive: true });
  for (const name of await readdir(MODULES)) {
    if (name !== "tunesmith" && !name.startsWith(".")) await symlink(join(MODULES, name), join(dir, "node_modules", name));
  }
  await symlink(PKG, join(dir, "node_modules", "tunesmith"), "dir");
  await symlink(join(ROOT, "tests"), join(dir, "tests"), "dir");
  await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  await writeFile(join(dir, "ambient.d.ts"), AMBIENT);
  const compilerOptions = {
    strict: true,
    allowJs: true,
    checkJs: true,
    noEmit: true,
    skipLibCheck: true,
    preserveSymlinks: true,
    target: "es2022",
    module: "nodenext",
    moduleResolution: "nodenext",
    lib: ["es2022", "dom", "dom.iterable"],
    types: ["node"],
  };
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["ambient.d.ts", ...wanted.keys()] }));

  let stdout = "";
  try {
    await promisify(execFile)(process.execPath, [TSC, "-p", dir], { cwd: dir, maxBuffer: 64 << 20 });
  } catch (e) {
    if (typeof e.stdout !== "string") throw e;
    stdout = e.stdout;
  }
  // The package must resolve, or its names are `any` and nothing about them is checked.
  assert.doesNotMatch(stdout, /Cannot find module 'tunesmith/);
  const errors = [];
  for (const line of stdout.split("\n")) {
    const m = line.match(/^(.+?)\((\d+),\d+\): error TS\d+/);
    if (!m) continue;
    const at = Number(m[2]);
    const region = (wanted.get(m[1]) ?? []).find((r) => at >= r.from && at <= r.to);
    if (region) errors.push(`${region.name}: ${line}`);
  }
  assert.deepEqual(errors, []);
});
