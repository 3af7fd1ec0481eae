// @modelcontextprotocol/conformance, the protocol's own suite, against the companion's /mcp
// (Streamable HTTP; the suite drives servers by URL only) in front of the emulator of
// `cargo xtask test`. The suite needs Node 22: `cargo xtask test` installs it from npm's `node`
// package in tests/js/conformance, beside the suite.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { skip as noEmulator, startCompanion } from "./companion/harness.mjs";

const HERE = join(dirname(fileURLToPath(import.meta.url)), "conformance");
const NODE22 = join(HERE, "node_modules", ".bin", "node");
const SUITE = join(HERE, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const skip = noEmulator || (!existsSync(NODE22) && "needs `npm ci` in tests/js/conformance (cargo xtask test runs it)");

/** The scenarios that test what this server offers; every other is in baseline.yml, with why. */
const COVERED = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"];

let companion;
before(async () => {
  if (skip) return;
  // The suite's client sends no credentials: every request is one user's, and its ~30 scenarios'
  // exchanges pass the default 120 requests a minute (the /mcp exchange counts): limits are not tested here.
  companion = await startCompanion({ mcp: true, authorize: () => "conformance", limits: { requestsPerWindow: 100_000 } });
});
after(async () => companion?.close());

/** Runs the suite's `server` command; resolves with its exit code, output and checks by scenario. */
async function conformance(args) {
  const out = await mkdtemp(join(tmpdir(), "ts-conformance-"));
  const { code, stdout, stderr } = await new Promise((resolve) =>
    execFile(NODE22, [SUITE, "server", "--url", `${companion.url}/mcp`, "-o", out, ...args], { maxBuffer: 1 << 26 }, (e, stdout, stderr) =>
      resolve({ code: e ? e.code : 0, stdout, stderr }),
    ),
  );
  const checks = {};
  for (const dir of await readdir(out)) {
    const scenario = dir.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT.*$/, "");
    checks[scenario] = JSON.parse(await readFile(join(out, dir, "checks.json"), "utf8"));
  }
  return { code, output: `${stdout}\n${stderr}`, checks };
}

test("the suite runs on the Node 22 it was installed with", { skip }, async () => {
  const version = await new Promise((resolve, reject) => execFile(NODE22, ["--version"], (e, out) => (e ? reject(e) : resolve(out))));
  assert.match(version, /^v22\./);
});

for (const scenario of COVERED) {
  test(`conformance: ${scenario} passes, every check a success`, { skip }, async () => {
    const { code, output, checks } = await conformance(["--scenario", scenario]);
    assert.equal(code, 0, output);
    const results = checks[scenario];
    assert.ok(results?.length, output);
    const failed = results.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
    assert.deepEqual(failed, [], output);
    assert.ok(results.some((c) => c.status === "SUCCESS"), output);
  });
}

test("conformance: the whole active suite fails only the scenarios baseline.yml lists, and each of those fails", { skip }, async () => {
  // The tool itself holds the run to the baseline: exit 1 on a regression or a stale entry.
  const { code, output, checks } = await conformance(["--expected-failures", join(HERE, "baseline.yml")]);
  assert.equal(code, 0, output);
  for (const scenario of COVERED) assert.ok(checks[scenario].every((c) => c.status !== "FAILURE"), scenario);
});
