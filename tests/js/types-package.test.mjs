// The package's types, held to what users write: a TypeScript consumer (tests/e2e/_consumer.ts: a
// companion client's creates without `callBackUrl`, the waiters' results used without null checks)
// passes `tsc --strict` against the package under test.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PKG = resolve(process.env.TUNESMITH_PKG ?? join(ROOT, "pkg"));
const MODULES = join(ROOT, "node_modules");
const TSC = join(MODULES, "typescript", "bin", "tsc");
const run = promisify(execFile);

/** Runs tsc in `dir`; resolves with its diagnostics (`file(line,col): error ...` lines). */
async function tsc(dir) {
  try {
    await run(process.execPath, [TSC, "-p", dir], { cwd: dir });
    return [];
  } catch (e) {
    if (!e.stdout) throw e;
    return e.stdout.split("\n").filter((l) => / error TS\d+/.test(l));
  }
}

let scratch;
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), "types-package-"));
});
after(async () => scratch && rm(scratch, { recursive: true, force: true }));

/** A project folder where "tunesmith" is the package under test, as after `npm install tunesmith`. */
async function project(name, compilerOptions, files) {
  const dir = join(scratch, name);
  await mkdir(join(dir, "node_modules"), { recursive: true });
  await symlink(PKG, join(dir, "node_modules", "tunesmith"), "dir");
  await symlink(join(MODULES, "@types"), join(dir, "node_modules", "@types"), "dir");
  await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  const options = { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext", ...compilerOptions };
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: options, files }));
  return dir;
}

test("the TypeScript consumer passes tsc --strict: companion creates without callBackUrl, waiters' results without null checks", async () => {
  const dir = await project("consumer", { lib: ["es2022", "dom"], types: [], skipLibCheck: false }, ["check.ts"]);
  await copyFile(join(ROOT, "tests", "e2e", "_consumer.ts"), join(dir, "check.ts"));
  const errors = await tsc(dir);
  assert.deepEqual(errors, []);
});

test("a companion's allow takes the operations' names: a misspelt one fails tsc, OperationName is exported", async () => {
  const dir = await project("allow", { lib: ["es2022", "dom"], types: [], skipLibCheck: true }, ["check.ts"]);
  await writeFile(
    join(dir, "check.ts"),
    `import { createCompanion, DEFAULT_ALLOW, type CompanionOptions, type OperationName } from "tunesmith/server";

const base: CompanionOptions = { apiKey: "key", publicUrl: "https://app.example/ts", authorize: () => "user" };
createCompanion({ ...base, allow: ["uploadFile", "generate", "getTask"] });
const mine: readonly OperationName[] = ["generate", "getTask"] as const;
createCompanion({ ...base, allow: mine });
createCompanion({ ...base, allow: DEFAULT_ALLOW.filter((op) => op !== "uploadBase64") });
// @ts-expect-error: not an operation
createCompanion({ ...base, allow: ["generat"] });
const anyString: string = "generate";
// @ts-expect-error: a string is not known to name an operation
createCompanion({ ...base, allow: [anyString] });
`,
  );
  const errors = await tsc(dir);
  assert.deepEqual(errors, []);
});
