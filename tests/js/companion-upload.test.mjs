// A 100 MB upload through the companion: it streams, so the companion's memory stays
// flat; measured on a companion in its own process.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { session, skip } from "./companion/harness.mjs";
import { multipartStream, spawnCompanion } from "./companion/process.mjs";

const MB = 1024 * 1024;
let companion;
before(async () => {
  if (!skip) companion = await spawnCompanion({ COMPANION_LIMITS: JSON.stringify({ uploadBytes: 150 * MB }) });
});
after(async () => companion?.kill());

test("a 100 MB upload streams through with flat memory", { skip, timeout: 180_000 }, async () => {
  const idle = await companion.rssMb();
  let peak = idle;
  const sampler = setInterval(async () => {
    peak = Math.max(peak, await companion.rssMb().catch(() => 0));
  }, 50);
  const { body, contentType, length } = multipartStream(100 * MB);
  const response = await fetch(`${companion.url}/upload/api/file-stream-upload`, {
    method: "POST",
    headers: { ...session("uma"), "content-type": contentType, "content-length": String(length) },
    body,
    duplex: "half",
  });
  const answer = await response.json();
  clearInterval(sampler);
  assert.equal(response.status, 200, JSON.stringify(answer));
  assert.equal(answer.data.fileSize, 100 * MB);
  console.log(`companion RSS: idle ${idle.toFixed(1)} MB, peak during a 100 MB upload ${peak.toFixed(1)} MB`);
  // Flat: not the file's 100 MB, only the chunks that passed and wait for the collector (V8 lets
  // some 64 MB of dead buffers pile up before it collects; here they peak near 45 MB, the same for
  // a 190 MB upload).
  assert.ok(peak - idle < 64, `RSS grew by ${(peak - idle).toFixed(1)} MB during the upload`);
});
