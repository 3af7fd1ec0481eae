// tests/deploy/worker: the packed package in Cloudflare's runtime, under `wrangler dev --local`
// (wrangler and workerd from npm, offline): a Worker calling the service with its own key, and a
// Worker serving the companion, both driven over HTTP against the emulator.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, request as httpRequest } from "node:http";
import { join } from "node:path";
import { SESSION, companionRoundTrip, freePort, importFrom, install, service, start, wavFile } from "./_harness.mjs";

let dir, emu;
const running = [];

// Everything that could reach the network: metrics, the `request.cf` download, update checks.
const OFFLINE = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  CI: "true",
  NO_COLOR: "1",
};

/** `wrangler dev --local` of one Worker folder with `vars`, on `port`; its URL. */
async function wranglerDev(worker, vars, port) {
  const args = ["dev", "--local", "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(await freePort()), "--show-interactive-dev-session=false"];
  for (const [name, value] of Object.entries(vars)) args.push("--var", `${name}:${value}`);
  const url = `http://127.0.0.1:${port}`;
  running.push(
    await start(join(dir, "node_modules", ".bin", "wrangler"), args, {
      cwd: join(dir, worker),
      env: OFFLINE,
      ready: `${url}/ready`,
    }),
  );
  return url;
}

/**
 * The upload host as seen through a proxy that passes stream uploads on to the emulator and
 * answers every Base64 upload with a redirect to `trap`, which counts what reaches it.
 */
async function redirectingUploadHost(upload) {
  const trapped = [];
  const trap = createServer((req, res) => {
    trapped.push({ url: req.url, authorization: req.headers.authorization ?? null });
    res.writeHead(200, { "content-type": "application/json" }).end('{"code":200,"data":{}}');
  }).listen(0, "127.0.0.1");
  await once(trap, "listening");
  const proxy = createServer((req, res) => {
    if (req.url.startsWith("/api/file-base64-upload")) {
      req.resume();
      return res.writeHead(307, { location: `http://127.0.0.1:${trap.address().port}${req.url}` }).end();
    }
    const target = new URL(req.url, upload);
    const out = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    out.on("error", () => res.destroy());
    req.pipe(out);
  }).listen(0, "127.0.0.1");
  await once(proxy, "listening");
  return {
    url: `http://127.0.0.1:${proxy.address().port}`,
    trapped,
    close: () => Promise.all([trap, proxy].map((s) => new Promise((r) => s.close(r)))),
  };
}

let upstream;

before(async () => {
  dir = await install("worker");
  emu = await service();
  upstream = await redirectingUploadHost(emu.upload);
});

after(async () => {
  for (const worker of running) await worker.stop();
  await upstream?.close();
  await emu?.stop();
});

test("Worker with its own key: the package loads in workerd and makes real calls", async () => {
  const url = await wranglerDev("client", {
    TUNESMITH_API_KEY: emu.key,
    TUNESMITH_BASE_URL: emu.music,
    TUNESMITH_UPLOAD_URL: emu.upload,
    CALLBACK_URL: `${emu.music}/inbox/deploy-worker`,
  }, await freePort());
  // Refused inside the Worker by the wasm's own rules, with the field named.
  const bad = await fetch(`${url}/songs`, { method: "POST", body: JSON.stringify({ prompt: "" }) });
  const refusal = await bad.json();
  assert.equal(bad.status, 400, JSON.stringify(refusal));
  assert.equal(refusal.field, "prompt");

  const created = await fetch(`${url}/songs`, { method: "POST", body: JSON.stringify({ prompt: "rain on a tin roof" }) });
  const { taskId } = await created.json();
  assert.equal(created.status, 200);
  assert.match(taskId, /^[\w-]+$/);
  let song;
  for (let i = 0; i < 600; i++) {
    song = await (await fetch(`${url}/songs/${taskId}`)).json();
    if (song.state === "succeeded" || song.state === "failed") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(song.state, "succeeded", JSON.stringify(song));
  assert.equal(song.tracks.length, 2);
  assert.ok(song.tracks.every((t) => t.audioUrl.startsWith("http") && t.duration > 0), JSON.stringify(song));
});

test("Worker serving the companion: uploads stream through, stages are pushed, a redirect is never followed", async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/tunesmith`;
  await wranglerDev("companion", {
    TUNESMITH_API_KEY: emu.key,
    TUNESMITH_BASE_URL: emu.music,
    TUNESMITH_UPLOAD_URL: upstream.url,
    PUBLIC_URL: url,
    DEMO_SESSION: SESSION,
  }, port);
  const tunesmith = await importFrom(dir, "tunesmith");
  await companionRoundTrip(assert, tunesmith, url);

  // The service answering with a redirect gets a 502, and the key never travels to its target.
  const client = new tunesmith.Client({ companionUrl: url, headers: { authorization: `Bearer ${SESSION}` } });
  const bytes = new Uint8Array(await wavFile().arrayBuffer());
  const error = await client.uploadBase64(bytes, { fileName: "a.wav", mimeType: "audio/wav", uploadPath: "deploy" }, { maxRetries: 0 }).then(
    () => null,
    (e) => e,
  );
  assert.ok(error instanceof tunesmith.ApiError, String(error));
  assert.equal(error.status, 502, String(error));
  assert.deepEqual(upstream.trapped, []);
});
