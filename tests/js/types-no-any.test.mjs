// No `any` in the package's declarations: every .d.ts under the package under test (TUNESMITH_PKG)
// is read without its comments and strings, and an `any` left anywhere is refused, with its file
// and line. `any` switches the checking off for whatever touches it; `unknown` or the precise type says
// what the value is.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PKG = resolve(process.env.TUNESMITH_PKG ?? join(ROOT, "pkg"));

/** Every .d.ts file under `dir`, outside node_modules. */
async function declarations(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "node_modules") out.push(...(await declarations(path)));
    else if (entry.isFile() && /\.d\.[cm]?ts$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** `text` with its comments and string literals blanked out, line breaks kept. */
function code(text) {
  const blank = (m) => m.replace(/[^\n]/g, " ");
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, blank);
}

/** `file:line: text` of each `any` keyword in the declaration text `source`. */
function anys(file, source) {
  const lines = source.split("\n");
  return code(source)
    .split("\n")
    .flatMap((line, i) => [...line.matchAll(/(?<![\w$.])any(?![\w$])/g)].map(() => `${file}:${i + 1}: ${lines[i].trim()}`));
}

test("the finder sees `any` in a type, not in a comment or a name", () => {
  const source = '/** any value */\nexport declare function f(a: any): Promise<any>;\nexport type anyway = "any" | `${string}any`; // any\n';
  assert.deepEqual(anys("x.d.ts", source), [
    "x.d.ts:2: export declare function f(a: any): Promise<any>;",
    "x.d.ts:2: export declare function f(a: any): Promise<any>;",
  ]);
});

test("no shipped .d.ts declares anything as `any`", async () => {
  const files = await declarations(PKG);
  assert.ok(files.some((f) => f.endsWith("tunesmith.d.ts")), `no tunesmith.d.ts under ${PKG}`);
  assert.ok(files.some((f) => f.includes(join("server", ""))), `no server declarations under ${PKG}`);
  const found = [];
  for (const file of files) found.push(...anys(relative(PKG, file), await readFile(file, "utf8")));
  assert.deepEqual(found, []);
});
