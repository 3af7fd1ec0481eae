// tests/deploy/deno and tests/deploy/bun: the companion on Deno.serve and on Bun.serve, each
// runtime's binary from its npm package, driven as a page would drive it.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { SESSION, companionRoundTrip, freePort, importFrom, install, service, start } from "./_harness.mjs";

const running = [];
let emu;
let bunUrl;

after(async () => {
  for (const app of running) await app.stop();
  await emu?.stop();
});

/** Installs `example`, runs `args` of its npm-installed `bin` there; the companion's URL. */
async function serve(example, bin, args) {
  const dir = await install(example);
  emu ??= await service();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/tunesmith`;
  running.push(
    await start(join(dir, "node_modules", ".bin", bin), args, {
      cwd: dir,
      env: {
        PORT: String(port),
        PUBLIC_URL: url,
        TUNESMITH_API_KEY: emu.key,
        TUNESMITH_BASE_URL: emu.music,
        TUNESMITH_UPLOAD_URL: emu.upload,
        DEMO_SESSION: SESSION,
        DENO_NO_UPDATE_CHECK: "1",
        DO_NOT_TRACK: "1",
      },
      ready: `${url}/events`,
    }),
  );
  return { dir, url };
}

test("Deno: the companion on Deno.serve uploads, refuses and pushes a song's stages", async () => {
  const { dir, url } = await serve("deno", "deno", ["run", "--allow-net", "--allow-env", "--allow-read", "main.js"]);
  await companionRoundTrip(assert, await importFrom(dir, "tunesmith"), url);
});

test("Bun: the companion on Bun.serve uploads, refuses and pushes a song's stages", async () => {
  const { dir, url } = await serve("bun", "bun", ["main.js"]);
  bunUrl = url;
  await companionRoundTrip(assert, await importFrom(dir, "tunesmith"), url);
});

test("Bun: an idle event stream outlives Bun's 10 s idle timeout until the companion's heartbeat", async () => {
  assert.ok(bunUrl, "the Bun example runs");
  const res = await fetch(`${bunUrl}/events`, { headers: { authorization: `Bearer ${SESSION}` }, signal: AbortSignal.timeout(40_000) });
  assert.equal(res.status, 200);
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of res.body) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes(": heartbeat")) break;
  }
  assert.match(text, /: heartbeat/, `the stream ended first: ${JSON.stringify(text)}`);
});
