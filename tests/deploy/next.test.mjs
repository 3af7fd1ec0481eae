// tests/deploy/next: the companion as an App Router route handler. `next build` runs without the
// key (as a CI build would), then `next start` serves the built app, driven as a page would.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { SESSION, companionRoundTrip, freePort, importFrom, install, service, start } from "./_harness.mjs";
import { sh } from "../e2e/_lib.mjs";

const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: "1" };
let dir, app, emu, url;

before(async () => {
  dir = await install("next");
  const next = join(dir, "node_modules", ".bin", "next");
  // The build loads every route module: one that needed the key at load time fails here.
  const env = { ...process.env, ...NEXT_ENV };
  for (const name of Object.keys(env)) if (name.startsWith("TUNESMITH_")) delete env[name];
  await sh(next, ["build"], { cwd: dir, env });
  emu = await service();
  const port = await freePort();
  url = `http://127.0.0.1:${port}/tunesmith`;
  app = await start(next, ["start", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: dir,
    env: {
      ...NEXT_ENV,
      PUBLIC_URL: url,
      TUNESMITH_API_KEY: emu.key,
      TUNESMITH_BASE_URL: emu.music,
      TUNESMITH_UPLOAD_URL: emu.upload,
      DEMO_SESSION: SESSION,
    },
    ready: `${url}/events`,
  });
});

after(async () => {
  await app?.stop();
  await emu?.stop();
});

test("Next.js: the built route handler uploads, refuses and pushes a song's stages", async () => {
  await companionRoundTrip(assert, await importFrom(dir, "tunesmith"), url);
});
