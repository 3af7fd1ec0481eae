// `cargo xtask demo` as a newcomer meets it: `--help` prints its usage and succeeds, a taken port
// is reported by number with the switch that changes it (before anything is built), and the
// README says how to pick ports and that credits and tasks persist in the demo's data folder.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { ROOT, assert, readFile, runTests, test } from "./_lib.mjs";

/** Runs `cargo xtask ...args` from the repository root; resolves with its exit code and output. */
function xtask(args, timeoutMs = 120000) {
  return new Promise((resolve, reject) => {
    const child = spawn("cargo", ["xtask", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => { out += c; });
    child.stderr.on("data", (c) => { err += c; });
    const timer = setTimeout(() => {
      child.kill("SIGINT");
      reject(new Error(`cargo xtask ${args.join(" ")} still running after ${timeoutMs} ms:\n${out}\n${err}`));
    }, timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

async function listen() {
  const server = createServer();
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return server;
}

test("cargo xtask demo --help exits 0 and prints the usage, with --port", async () => {
  const { code, out } = await xtask(["demo", "--help"]);
  assert(code === 0, `exit code ${code}`);
  assert(/usage: cargo xtask demo/.test(out) && out.includes("--port") && out.includes("--upload-port"), `usage:\n${out}`);
});

test("a taken port is reported by number, with the --port switch, before any build", async () => {
  const taken = await listen();
  const port = taken.address().port;
  const free = await listen();
  const freePort = free.address().port;
  await new Promise((r) => free.close(r));
  try {
    const t0 = Date.now();
    const { code, err } = await xtask(["demo", "--port", String(port), "--upload-port", String(freePort)]);
    assert(code !== 0, "failed");
    assert(err.includes(`port ${port}`) && err.includes("--port"), `message:\n${err}`);
    assert(Date.now() - t0 < 60000, "reported before building");
  } finally {
    await new Promise((r) => taken.close(r));
  }
});

test("the README mentions --port and that credits and tasks persist across restarts", async () => {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  assert(readme.includes("cargo xtask demo --port"), "--port shown");
  assert(/target\/demo-data/.test(readme) && /across restarts/.test(readme), "the data folder and its persistence");
  assert(!/restart the emulator/i.test(readme), "no promise that a restart refills credits");
});

await runTests();
