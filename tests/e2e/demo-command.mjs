// `cargo xtask demo` as a newcomer meets it: `--help` prints its usage and succeeds, a taken port
// is reported by number with the switch that changes it (before anything is built), and the
// README says how to pick ports and that credits and tasks persist in the demo's data folder; the
// emulator alone does not take the demo's ports; the README's quickstart gives what it needs to run
// as copied (the key, both URLs, the hum.wav it reads).
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { existsSync } from "node:fs";
import { PKG, ROOT, assert, readFile, runTests, sh, test } from "./_lib.mjs";

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
    assert(err.includes(`port ${port} (--port)`), `message:\n${err}`);
    // One message: the three ports a second demo can run on.
    assert(/`cargo xtask demo --port \d+ --upload-port \d+ --companion-port \d+`/.test(err), `three free ports suggested:\n${err}`);
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

/** The emulator binary's `--help` (built when missing, as the other e2e scripts do). */
async function emulatorHelp() {
  const bin = join(process.env.CARGO_TARGET_DIR ?? join(ROOT, "target"), "release", "tunesmith-emulator");
  if (!existsSync(bin)) await sh("cargo", ["build", "--quiet", "-p", "tunesmith-emulator", "--release"], { cwd: ROOT });
  return (await sh(bin, ["--help"])).stdout;
}

/** `tunesmith emulator --help` of the built package: what `npx tunesmith emulator` prints. */
async function npxEmulatorHelp() {
  return (await sh(process.execPath, [join(PKG, "cli", "tunesmith.js"), "emulator", "--help"])).stdout;
}

const portOf = (addr) => Number(/:(\d+)\b/.exec(addr)?.[1]);

test("the emulator's default ports are not the demo's: both run side by side", async () => {
  const help = await emulatorHelp();
  const music = portOf(/--music-addr[\s\S]*?\[default: ([^\]]+)\]/.exec(help)?.[1]);
  const upload = portOf(/--upload-addr[\s\S]*?\[default: ([^\]]+)\]/.exec(help)?.[1]);
  assert(music && upload, `defaults in the emulator's --help:\n${help}`);
  const { out } = await xtask(["demo", "--help"]);
  const demo = [...out.matchAll(/\(default (\d+)\)/g)].map((m) => Number(m[1]));
  assert(demo.length === 3, `the demo's three ports in its usage:\n${out}`);
  for (const port of [music, upload]) assert(!demo.includes(port), `emulator port ${port} is one of the demo's ${demo}`);
});

test("the README's quickstart runs as copied: the dev key, both emulator URLs, and a hum.wav that ships", async () => {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Quickstart"), readme.indexOf("<!-- snippet: quickstart -->"));
  const shell = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  // The emulator it starts: `npx tunesmith emulator` (no Rust needed) or the Rust binary; the
  // URLs written are that one's default ports.
  const npx = /(^|\s)npx tunesmith emulator\b/.test(shell);
  // The Quickstart needs no Rust to run the emulator (issue 39): npx, not cargo run.
  assert(npx && !/cargo run -p tunesmith-emulator/.test(shell), `the emulator started with npx tunesmith emulator:\n${shell}`);
  const help = npx ? await npxEmulatorHelp() : await emulatorHelp();
  const music = /--music-addr[\s\S]*?\[default: ([^\]]+)\]/.exec(help)[1];
  const upload = /--upload-addr[\s\S]*?\[default: ([^\]]+)\]/.exec(help)[1];
  assert(/TUNESMITH_API_KEY=ts-dev-key\b/.test(shell), `the development key:\n${shell}`);
  assert(shell.includes(`TUNESMITH_BASE_URL=http://${music}`), `the music host at the emulator's default ${music}:\n${shell}`);
  assert(shell.includes(`TUNESMITH_UPLOAD_URL=http://${upload}`), `the upload host at the emulator's default ${upload}:\n${shell}`);
  // The file the quickstart's code reads is one the steps put there, from the checkout.
  const copied = /cp \/path\/to\/this\/checkout\/(\S+) \./.exec(shell)?.[1];
  assert(copied && copied.endsWith("hum.wav"), `a step copies hum.wav:\n${shell}`);
  const wav = await readFile(join(ROOT, copied));
  assert(wav.subarray(0, 4).toString() === "RIFF" && wav.subarray(8, 12).toString() === "WAVE", `${copied} is a WAV file`);
  const seconds = wav.readUInt32LE(40) / wav.readUInt32LE(28);
  assert(seconds >= 4, `${copied} lasts ${seconds} s`);
});

test("the README names --companion-port and says the demo page runs through the companion", async () => {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  assert(readme.includes("--companion-port"), "--companion-port named");
  assert(/page runs \*\*through a companion server\*\*/.test(readme), "the demo page runs through the companion");
});

await runTests();
