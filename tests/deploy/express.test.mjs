// tests/deploy/express: the companion mounted with `app.use("/tunesmith", toNodeListener(...))` in
// an Express app from npm, driven as a page would drive it.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { SESSION, companionRoundTrip, freePort, importFrom, install, service, start } from "./_harness.mjs";

let dir, app, emu, url;

before(async () => {
  dir = await install("express");
  emu = await service();
  const port = await freePort();
  url = `http://127.0.0.1:${port}/tunesmith`;
  app = await start("node", ["server.js"], {
    cwd: dir,
    env: {
      PORT: String(port),
      PUBLIC_URL: url,
      TUNESMITH_API_KEY: emu.key,
      TUNESMITH_BASE_URL: emu.music,
      TUNESMITH_UPLOAD_URL: emu.upload,
      DEMO_SESSION: SESSION,
    },
    ready: `http://127.0.0.1:${port}/`,
  });
});

after(async () => {
  await app?.stop();
  await emu?.stop();
});

test("Express: the companion under a prefix uploads, refuses and pushes a song's stages", async () => {
  await companionRoundTrip(assert, await importFrom(dir, "tunesmith"), url);
});

test("Express: the app's own routes still answer beside the companion", async () => {
  const res = await fetch(new URL("/", url));
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "the rest of your app");
});
