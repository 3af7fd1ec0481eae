// Uploads through the companion, in its own process: a 100 MB stream upload (memory stays flat),
// and Base64 uploads of several MB, whose data is longer than the package's request checks read.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { pkg, session, skip } from "./companion/harness.mjs";
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

test("a 5 MB Base64 upload goes through the companion, as text and as a data URL, from the page's Client", { skip }, async () => {
  const client = new pkg.Client({ companionUrl: companion.url, headers: session("bea") });
  const bytes = new Uint8Array(5 * MB).map((_, i) => i % 251);
  const text = Buffer.from(bytes).toString("base64");
  const bare = await client.uploadBase64(text, { uploadPath: "companion", fileName: "five.bin" });
  assert.equal(bare.fileSize, 5 * MB);
  const url = await client.uploadBase64(`data:audio/wav;base64,${text}`, { uploadPath: "companion", fileName: "five.wav" });
  assert.equal(url.fileSize, 5 * MB);
  assert.equal(url.mimeType, "audio/wav");
});

test("Base64 data short enough to check is checked as it is: an empty one is refused, naming the field", { skip }, async () => {
  const response = await fetch(`${companion.url}/upload/api/file-base64-upload`, {
    method: "POST",
    headers: { ...session("bea"), "content-type": "application/json" },
    body: JSON.stringify({ base64Data: "", uploadPath: "companion", fileName: "none.bin" }),
  });
  const answer = await response.json();
  assert.equal(response.status, 400, JSON.stringify(answer));
  assert.equal(answer.error, "validation", JSON.stringify(answer));
  assert.equal(answer.field, "base64Data", JSON.stringify(answer));
});
