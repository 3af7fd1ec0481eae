// `require("tunesmith")` from CommonJS, against the packed tarball: an `npm init -y` project (whose
// package.json says "type": "commonjs") and a `.cjs` file inside an ES module project. Node 20.19+
// and 22.12+ load an ES module through require when it has no top-level await.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, writeFile, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sh } from "../e2e/_lib.mjs";
import { service, tarball } from "./_harness.mjs";

let emu;
let env;

before(async () => {
  emu = await service();
  env = { ...process.env, MUSIC: emu.music, UPLOAD: emu.upload, KEY: emu.key };
});

after(async () => {
  await emu?.stop();
});

/** A fresh folder set up by `npm init -y`, with the packed tarball installed and `files` written. */
async function project(files) {
  const dir = await mkdtemp(join(tmpdir(), "tunesmith-require-"));
  await sh("npm", ["init", "-y"], { cwd: dir });
  await sh("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", (await tarball()).tarball], { cwd: dir });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

/** Requires both entries, makes a real call and a refused one, serves one companion request. */
const SCRIPT = `
const { Client, ValidationError, ApiError } = require("tunesmith");
const { createCompanion } = require("tunesmith/server");
(async () => {
  const client = new Client({ apiKey: process.env.KEY, baseUrl: process.env.MUSIC, uploadUrl: process.env.UPLOAD });
  const out = { credits: (await client.getCredits()).credits };
  try {
    await client.generate({ customMode: false, instrumental: true, model: "V4_5", prompt: "", callBackUrl: process.env.MUSIC + "/inbox/require" });
  } catch (e) {
    out.refused = e instanceof ValidationError ? e.field : String(e);
  }
  const companion = createCompanion({ apiKey: "k", publicUrl: "http://127.0.0.1/ts", authorize: () => null });
  out.companion = (await companion(new Request("http://127.0.0.1/ts/events"))).status;
  await companion.close();
  out.apiError = typeof ApiError;
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
`;

function lastJson(stdout) {
  return JSON.parse(stdout.trim().split("\n").pop());
}

test("an `npm init -y` project: index.js requires tunesmith and tunesmith/server and calls the service", async () => {
  const dir = await project({ "index.js": SCRIPT });
  assert.equal(JSON.parse(await readFile(join(dir, "package.json"), "utf8")).type ?? "commonjs", "commonjs");
  const { stdout } = await sh("node", ["index.js"], { cwd: dir, env });
  const out = lastJson(stdout);
  assert.equal(typeof out.credits, "number");
  assert.equal(out.refused, "prompt");
  assert.equal(out.companion, 401);
  assert.equal(out.apiError, "function");
});

test("a .cjs file in an ES module project, and require and import give the same classes", async () => {
  const dir = await project({
    "main.cjs": SCRIPT,
    "same.mjs": `import { createRequire } from "node:module";
import * as imported from "tunesmith";
const required = createRequire(import.meta.url)("tunesmith");
console.log(JSON.stringify({ client: imported.Client === required.Client, errors: imported.ValidationError === required.ValidationError }));
`,
  });
  const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
  await writeFile(join(dir, "package.json"), JSON.stringify({ ...pkg, type: "module" }, null, 2));
  const { stdout } = await sh("node", ["main.cjs"], { cwd: dir, env });
  assert.equal(lastJson(stdout).refused, "prompt");
  // One module instance: an error thrown by code that required the package is an instance of
  // the class that code importing it sees.
  const same = await sh("node", ["same.mjs"], { cwd: dir, env });
  assert.deepEqual(lastJson(same.stdout), { client: true, errors: true });
});
