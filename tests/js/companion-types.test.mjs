// The companion's types cannot drift from its code: its JavaScript source is checked by the
// TypeScript compiler (strict), the declarations the package ships are the ones the compiler writes
// from that source, and a TypeScript program using `tunesmith/server` is held to them.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, mkdir, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { PKG, server, skip } from "./companion/harness.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const MODULES = resolve(HERE, "..", "..", "node_modules");
const TSC = join(MODULES, "typescript", "bin", "tsc");
const run = promisify(execFile);

/** Runs tsc; resolves with its output, rejects (with the output) when it reports an error. */
async function tsc(args) {
  try {
    const { stdout } = await run(process.execPath, [TSC, ...args], { cwd: HERE });
    return stdout;
  } catch (e) {
    throw new Error(`tsc failed:\n${e.stdout}${e.stderr}`);
  }
}

let scratch;
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), "companion-types-"));
});
after(async () => scratch && rm(scratch, { recursive: true, force: true }));

test("the source passes tsc --strict, and the package ships the declarations tsc writes from it", { skip }, async () => {
  const out = join(scratch, "declarations");
  await tsc(["-p", join(HERE, "companion", "tsconfig.json"), "--outDir", out]);
  const written = (await readdir(out)).sort();
  const shipped = (await readdir(join(PKG, "server", "types"))).sort();
  assert.deepEqual(shipped, written);
  for (const file of written) {
    assert.equal(await readFile(join(PKG, "server", "types", file), "utf8"), await readFile(join(out, file), "utf8"), file);
  }
  // The defaults in the declarations are the code's own values, not a copy.
  const options = await readFile(join(out, "options.d.ts"), "utf8");
  for (const [name, value] of Object.entries(server.DEFAULT_LIMITS)) {
    assert.match(options, new RegExp(`readonly ${name}: ${value};`), name);
  }
});

test("a TypeScript program using tunesmith/server is held to the declared options", { skip }, async () => {
  const project = join(scratch, "consumer");
  await mkdir(join(project, "node_modules"), { recursive: true });
  await symlink(resolve(PKG), join(project, "node_modules", "tunesmith"), "dir");
  await symlink(join(MODULES, "@types"), join(project, "node_modules", "@types"), "dir");
  await writeFile(join(project, "package.json"), JSON.stringify({ type: "module" }));
  await writeFile(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: "nodenext", target: "es2022", lib: ["es2023", "dom"], types: ["node"], skipLibCheck: true },
      files: ["consumer.ts"],
    }),
  );
  await writeFile(
    join(project, "consumer.ts"),
    `import { createServer } from "node:http";
import { createCompanion, DEFAULT_LIMITS, fileStore, memoryStore, toNodeListener, type CompanionOptions } from "tunesmith/server";

const options: CompanionOptions = {
  apiKey: "key",
  publicUrl: "https://app.example/ts",
  authorize: (request: Request) => request.headers.get("x-session"),
  limits: { eventStreams: 3, requestsInFlight: 4, tasksInFlight: DEFAULT_LIMITS.tasksInFlight },
  store: fileStore({ path: "/tmp/companion.json" }),
};
const handler = createCompanion(options);
const answer: Promise<Response> = handler(new Request("https://app.example/ts/events"));
createServer(toNodeListener(handler));
const windowMs: 60000 = DEFAULT_LIMITS.windowMs;
createCompanion({ ...options, store: memoryStore() });

// @ts-expect-error: not a limit
createCompanion({ ...options, limits: { requestsPerMinute: 5 } });
// @ts-expect-error: authorize is required
createCompanion({ apiKey: "key", publicUrl: "https://app.example/ts" });
// @ts-expect-error: a store has its methods
createCompanion({ ...options, store: {} });
// @ts-expect-error: a number of milliseconds
createCompanion({ ...options, heartbeatMs: "15s" });
export { answer, windowMs };
`,
  );
  await tsc(["-p", join(project, "tsconfig.json")]);
});
