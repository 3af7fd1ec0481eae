// End-to-end: files picked through a real `<input type=file>` (set by the driver, as a user would)
// uploaded by the built package in headless Chromium, against the emulator on another origin.
// Env: TUNESMITH_TEST_MUSIC_URL, TUNESMITH_TEST_UPLOAD_URL, TUNESMITH_TEST_API_KEY, TUNESMITH_PKG,
// TUNESMITH_CHROMIUM (optional). A `node --test` file: one page, the tests in order.
import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { after, before, test as nodeTest } from "node:test";
import { CHROMIUM_ARGS, servePackagePage } from "./_lib.mjs";

const MUSIC = process.env.TUNESMITH_TEST_MUSIC_URL;
const UPLOAD = process.env.TUNESMITH_TEST_UPLOAD_URL;
const KEY = process.env.TUNESMITH_TEST_API_KEY;
const PKG = process.env.TUNESMITH_PKG;
if (!MUSIC || !UPLOAD || !KEY || !PKG) {
  console.error("uploads e2e: TUNESMITH_TEST_MUSIC_URL, TUNESMITH_TEST_UPLOAD_URL, TUNESMITH_TEST_API_KEY and TUNESMITH_PKG are required");
  process.exit(2);
}

const PAGE = `<!doctype html>
<title>uploads</title>
<input type="file" id="one">
<input type="file" id="many" multiple>
<progress max="1" value="0"></progress>
<script type="module">
  import * as tunesmith from "/pkg/index.js";
  window.tunesmith = tunesmith;
  window.__ready = true;
</script>`;

// The page and the package, from an ephemeral port: the emulator is another origin (CORS).
const site = await servePackagePage(PKG, PAGE);
const origin = site.url;

/** A WAV header and `len` bytes that vary with position, so a digest catches any change. */
function wav(len, seed) {
  const out = Buffer.alloc(44 + len);
  out.write("RIFF", 0);
  out.writeUInt32LE(36 + len, 4);
  out.write("WAVEfmt ", 8);
  Buffer.from([16, 0, 0, 0, 1, 0, 1, 0, 0x44, 0xac, 0, 0, 0x88, 0x58, 1, 0, 2, 0, 16, 0]).copy(out, 16);
  out.write("data", 36);
  out.writeUInt32LE(len, 40);
  for (let i = 0; i < len; i++) out[44 + i] = (Math.imul(i, 2654435761) + seed) >>> 13;
  return out;
}

/** Writes `bytes` to a temporary file named `name`: big files reach the page by path (fast), not
 * through the driver's protocol. */
async function onDisk(name, bytes) {
  const dir = await mkdtemp(join(tmpdir(), "tunesmith-e2e-"));
  const path = join(dir, name);
  await writeFile(path, bytes);
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

const sha256 = (buf) => createHash("sha256").update(buf).digest("hex");

async function download(url) {
  const res = await fetch(url);
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

const tests = [];
const test = (name, fn) => tests.push({ name, fn });
function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/** Runs `fn(env)` in the page, with the client options of this run. */
function inPage(page, fn, arg = {}) {
  const env = { music: MUSIC, upload: UPLOAD, key: KEY, tag: `e2e-uploads-${Date.now()}-${Math.random()}` };
  return page.evaluate(`(${fn})(${JSON.stringify({ ...env, ...arg })})`);
}

// Shared by the page-side functions below (stringified into the page, so no closures over Node).
const CLIENT = `(env) => new tunesmith.Client({ apiKey: env.key, baseUrl: env.music, uploadUrl: env.upload,
  dangerouslyAllowBrowser: true, headers: { "X-Emulator-Tag": env.tag } })`;

function increasing(events, total) {
  assert(events.length > 0, "no progress event");
  for (let i = 1; i < events.length; i++) {
    assert(events[i].loaded > events[i - 1].loaded, `progress went from ${events[i - 1].loaded} to ${events[i].loaded}`);
  }
  assert(events.every((e) => e.total === total), `total is not the file size ${total}`);
  assert(events.at(-1).loaded === total, "the last event is not loaded == total");
}

test("a file picked in <input type=file> streams with progress, name, type and bytes intact", async (page) => {
  const bytes = wav(3 * 1024 * 1024, 1);
  await page.setInputFiles("#one", { name: "my vocal.wav", mimeType: "audio/wav", buffer: bytes });
  const out = await inPage(page, `async (env) => {
    const client = (${CLIENT})(env);
    const file = document.querySelector("#one").files[0];
    const events = [];
    const bar = document.querySelector("progress");
    const record = await client.uploadFile(file, {
      uploadPath: "e2e/picked",
      onProgress: (p) => { events.push(p); bar.value = p.loaded / p.total; },
    });
    return { record, events, bar: bar.value };
  }`);
  const { record, events } = out;
  assert(record.fileName === "my vocal.wav", `fileName ${record.fileName}`);
  assert(record.originalName === "my vocal.wav", `originalName ${record.originalName}`);
  assert(record.mimeType === "audio/wav", `mimeType ${record.mimeType}`);
  assert(record.fileSize === bytes.length, `fileSize ${record.fileSize}`);
  assert(record.uploadPath === "e2e/picked", `uploadPath ${record.uploadPath}`);
  assert(Date.parse(record.expiresAt) - Date.parse(record.uploadTime) === 3 * 24 * 3600 * 1000, "expiresAt is not 3 days after upload");
  increasing(events, bytes.length);
  assert(out.bar === 1, `the progress bar ends at ${out.bar}`);
  const stored = await download(record.downloadUrl);
  assert(stored.status === 200 && sha256(stored.body) === sha256(bytes), "the stored bytes differ from the picked file");
});

test("a 50 MB file picked from disk streams and round-trips", async (page) => {
  const bytes = Buffer.alloc(50 * 1024 * 1024);
  for (let i = 0; i < bytes.length; i += 4096) bytes.writeUInt32LE(i, i);
  const file = await onDisk("long take.bin", bytes);
  try {
    await page.setInputFiles("#one", file.path);
    const { record, events } = await inPage(page, `async (env) => {
      const client = (${CLIENT})(env);
      const events = [];
      const record = await client.uploadFile(document.querySelector("#one").files[0], { onProgress: (p) => events.push(p) });
      return { record, events };
    }`);
    assert(record.fileName === "long take.bin" && record.fileSize === bytes.length, JSON.stringify(record));
    increasing(events, bytes.length);
    const stored = await download(record.downloadUrl);
    assert(sha256(stored.body) === sha256(bytes), "the stored bytes differ from the file on disk");
  } finally {
    await file.remove();
  }
});

test("several picked files upload at once, by stream and by Base64", async (page) => {
  const files = [
    { name: "a.wav", mimeType: "audio/wav", buffer: wav(200_000, 2) },
    { name: "b.wav", mimeType: "audio/wav", buffer: wav(300_000, 3) },
    { name: "c.wav", mimeType: "audio/wav", buffer: wav(100_000, 4) },
  ];
  await page.setInputFiles("#many", files);
  const records = await inPage(page, `async (env) => {
    const client = (${CLIENT})(env);
    const picked = [...document.querySelector("#many").files];
    return Promise.all(picked.map((f, i) => client.uploadFile(f, { uploadPath: "e2e/many", method: i === 1 ? "base64" : "auto" })));
  }`);
  for (const [i, f] of files.entries()) {
    const r = records[i];
    assert(r.fileName === f.name && r.mimeType === "audio/wav" && r.fileSize === f.buffer.length, JSON.stringify(r));
    assert(sha256((await download(r.downloadUrl)).body) === sha256(f.buffer), `${f.name}: stored bytes differ`);
  }
});

test("abort while a picked file uploads rejects with AbortError and stores nothing", async (page) => {
  const file = await onDisk("cancelled.bin", Buffer.alloc(40 * 1024 * 1024, 7));
  await page.setInputFiles("#one", file.path);
  const dir = `e2e/aborted-${Date.now()}`;
  const out = await inPage(page, `async (env) => {
    const client = (${CLIENT})(env);
    // The emulator holds the request before reading its body, so the upload is surely in flight
    // (bytes out, not all of them) when the first progress event aborts it, however fast the host.
    await fetch(env.music + "/_emulator/faults", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ tag: env.tag, delayMs: 3000, times: 1 }) });
    const controller = new AbortController();
    const events = [];
    try {
      await client.uploadFile(document.querySelector("#one").files[0], {
        uploadPath: env.dir,
        signal: controller.signal,
        onProgress: (p) => { events.push(p); if (p.loaded < p.total) controller.abort(); },
      });
      return { outcome: "resolved" };
    } catch (e) {
      return { outcome: e.name, isAbortError: e instanceof tunesmith.AbortError, events: events.length };
    }
  }`, { dir });
  await file.remove();
  assert(out.outcome === "AbortError" && out.isAbortError, JSON.stringify(out));
  await new Promise((r) => setTimeout(r, 300));
  const stored = await download(`${UPLOAD}/files/${dir}/cancelled.bin`);
  assert(stored.status === 404, `the aborted upload was stored (HTTP ${stored.status})`);
});

test("unsafe names and oversized Base64 are refused in the page, before any request", async (page) => {
  const file = await onDisk("big.bin", Buffer.alloc(11 * 1024 * 1024, 1));
  await page.setInputFiles("#one", file.path);
  const out = await inPage(page, `async (env) => {
    const client = (${CLIENT})(env);
    const file = document.querySelector("#one").files[0];
    const attempts = [
      client.uploadFile(file, { uploadPath: "../../etc" }),
      client.uploadFile(file, { fileName: "../x.bin" }),
      client.uploadFile(file, { method: "base64" }),
      client.uploadFromUrl("file:///etc/passwd"),
    ];
    const errors = [];
    for (const p of attempts) {
      try { await p; errors.push(null); } catch (e) { errors.push({ valid: e instanceof tunesmith.ValidationError, field: e.field, rule: e.rule }); }
    }
    const stats = await (await fetch(env.music + "/_emulator/stats?tag=" + encodeURIComponent(env.tag))).json();
    return { errors, requests: stats.requests };
  }`);
  await file.remove();
  const expected = [["uploadPath", "safe_path"], ["fileName", "safe_path"], ["file", "max_size"], ["fileUrl", "url"]];
  for (const [i, [field, rule]] of expected.entries()) {
    const e = out.errors[i];
    assert(e && e.valid && e.field === field && e.rule === rule, `case ${i}: ${JSON.stringify(e)}`);
  }
  assert(out.requests === 0, `${out.requests} request(s) reached the emulator`);
});

let browser;
let page;
const errors = [];
before(async () => {
  browser = await chromium.launch({ executablePath: process.env.TUNESMITH_CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  page = await browser.newPage();
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(origin + "/");
  await page.waitForFunction(() => window.__ready === true, null, { timeout: 30000 });
});
after(async () => {
  await browser?.close();
  await site.close();
});
for (const { name, fn } of tests) {
  nodeTest(name, async () => {
    await fn(page);
    assert(errors.length === 0, `uncaught errors in the page: ${errors.splice(0).join("; ")}`);
  });
}
