// Forwarding over the companion's own keep-alive connection pool (undici's, in Node): connections
// to the service are reused, the service gets only the headers the companion chose, and closing
// the companion closes its pool. (How fast it forwards is measured by `cargo xtask bench`.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { ALL_OPERATIONS, MUSIC, call, create, skip, sleep, startCompanion } from "./companion/harness.mjs";
import { countingRelay, hostileService } from "./companion/upstreams.mjs";

test("record queries reuse the pool's connections to the service", { skip }, async () => {
  const relay = await countingRelay(MUSIC);
  const c = await startCompanion({ baseUrl: relay.url, limits: { requestsInFlight: 100 } });
  try {
    const taskId = await create(c, "alice");
    const query = () => call(c, `/music/api/v1/generate/record-info?taskId=${taskId}`, { user: "alice" });
    for (let i = 0; i < 50; i++) assert.equal((await query()).status, 200);
    await Promise.all(Array.from({ length: 16 }, query));
    for (let i = 0; i < 50; i++) assert.equal((await query()).status, 200);
    assert.ok(relay.connections() <= 17, `${relay.connections()} connections for 117 requests`);
  } finally {
    await c.close();
    await relay.close();
  }
});

test("the service gets the companion's own headers only, under its own user agent", { skip }, async () => {
  const seen = [];
  const service = await hostileService(({ headers }) => {
    seen.push(headers);
    return { status: 200, headers: { "content-type": "application/json" }, body: '{"code":200,"msg":"success","data":1}' };
  });
  const c = await startCompanion({ baseUrl: service.url, allow: ALL_OPERATIONS });
  try {
    assert.equal((await call(c, "/music/api/v1/generate/credit", { user: "alice", headers: { "accept-language": "fr", cookie: "sid=1" } })).status, 200);
    const [headers] = seen;
    assert.match(headers["user-agent"], /^tunesmith-companion/);
    for (const h of ["cookie", "x-session", "accept-language", "sec-fetch-mode", "accept-encoding"]) assert.equal(headers[h], undefined, h);
    assert.match(headers.authorization, /^Bearer /);
  } finally {
    await c.close();
    await service.close();
  }
});

test("closing the companion closes its connections to the service", { skip }, async () => {
  const relay = await countingRelay(MUSIC);
  const c = await startCompanion({ baseUrl: relay.url, allow: ALL_OPERATIONS });
  assert.equal((await call(c, "/music/api/v1/generate/credit", { user: "alice" })).status, 200);
  assert.ok(relay.open() >= 2, "a kept-alive connection (both ends in the relay)");
  await c.close();
  for (let i = 0; i < 100 && relay.open() > 0; i++) await sleep(10);
  assert.equal(relay.open(), 0);
  await relay.close();
});
