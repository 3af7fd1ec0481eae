// End-to-end: the emulator's music video in a `<video>` of headless Chromium: it plays (muted
// autoplay), time advances, the picture has a size and is the track's cover, the sound decodes,
// and it seeks and plays to its end. Runs against the emulator `cargo xtask test` started (env),
// else one of its own. A `node --test` file: one page, the tests in order.
import { assert, browser, emulator, ensureTools, join, mkdtemp, rm, runTests, serveStatic, test, tmpdir, watchConsole, writeFile } from "./_lib.mjs";

const tools = await ensureTools();
const emu = await emulator();

async function call(path, body) {
  const res = await fetch(`${emu.music}${path}`, {
    method: body ? "POST" : "GET",
    headers: { authorization: `Bearer ${emu.key}`, "content-type": "application/json" },
    body: body && JSON.stringify(body),
  });
  const envelope = await res.json();
  assert(envelope.code === 200, `${path}: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

/** Polls a record until `done(record)`, for up to two minutes. */
async function until(path, done) {
  for (let i = 0; i < 600; i++) {
    const record = await call(path);
    if (done(record)) return record;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${path} did not finish`);
}

const callBackUrl = `${emu.music}/inbox/video-plays`;
const { taskId } = await call("/api/v1/generate", {
  customMode: true, instrumental: false, model: "V5", callBackUrl,
  prompt: "[Verse]\nLights on the water", style: "dream pop, slow", title: "Video check",
});
const song = await until(`/api/v1/generate/record-info?taskId=${taskId}`, (r) => r.status === "SUCCESS");
const [track, other] = song.response.sunoData;
const created = await call("/api/v1/mp4/generate", { taskId, audioId: track.id, callBackUrl, author: "e2e" });
const video = await until(`/api/v1/mp4/record-info?taskId=${created.taskId}`, (r) => r.successFlag === "SUCCESS");
const videoUrl = video.response.videoUrl;

// A page of our own origin: the emulator's files are another one, read with CORS.
const dir = await mkdtemp(join(tmpdir(), "tunesmith-video-"));
await writeFile(join(dir, "index.html"), "<!doctype html><title>video</title><body></body>");
const site = await serveStatic(dir);
const chromium = await browser(tools);
const page = await chromium.newPage();
const errors = watchConsole(page);
await page.goto(`${site.url}/`);

/** Loads `url` in a muted autoplaying `<video>`; what the element says once it plays, or its error. */
function load(url) {
  return page.evaluate(async (src) => {
    const v = document.createElement("video");
    Object.assign(v, { id: "clip", muted: true, autoplay: true, crossOrigin: "anonymous", src });
    document.body.append(v);
    const outcome = await new Promise((resolve) => {
      v.addEventListener("playing", () => resolve("playing"), { once: true });
      v.addEventListener("error", () => resolve(`MediaError ${v.error.code}: ${v.error.message}`), { once: true });
    });
    return { outcome, width: v.videoWidth, height: v.videoHeight, duration: v.duration };
  }, url);
}

/** Waits (up to 60 s) until the clip's `currentTime` passes `t`; returns what it reached. */
function playedPast(t) {
  return page.evaluate(async (past) => {
    const v = document.getElementById("clip");
    for (let i = 0; i < 600 && v.currentTime <= past && !v.ended; i++) await new Promise((r) => setTimeout(r, 100));
    return { time: v.currentTime, audio: v.webkitAudioDecodedByteCount, video: v.webkitVideoDecodedByteCount };
  }, t);
}

test("the music video plays: time advances, the picture has a size, the sound decodes", async () => {
  const played = await load(videoUrl);
  assert(played.outcome === "playing", `the video did not play: ${played.outcome}`);
  assert(played.width > 0 && played.height > 0, `videoWidth ${played.width}, videoHeight ${played.height}`);
  assert(Math.abs(played.duration - track.duration) < 0.01, `video ${played.duration} s, track ${track.duration} s`);
  const start = await page.evaluate(() => document.getElementById("clip").currentTime);
  const later = await playedPast(start + 1);
  assert(later.time > start + 1, `currentTime stayed at ${later.time} (from ${start})`);
  assert(later.audio > 0, "no audio decoded");
  assert(later.video > 0, "no video decoded");
  const size = (await fetch(videoUrl, { method: "HEAD" })).headers.get("content-length");
  console.log(`        ${size} bytes, ${played.width}x${played.height}, ${played.duration} s`);
});

test("the picture is the track's cover, not another track's", async () => {
  // Mean absolute difference per channel (0 to 255) between the frame shown and an image,
  // both drawn at 64 x 64.
  const differences = await page.evaluate(async (urls) => {
    const pixels = (source) => {
      const canvas = Object.assign(document.createElement("canvas"), { width: 64, height: 64 });
      const context = canvas.getContext("2d", { willReadFrequently: true });
      context.drawImage(source, 0, 0, 64, 64);
      return context.getImageData(0, 0, 64, 64).data;
    };
    const frame = pixels(document.getElementById("clip"));
    const diffs = [];
    for (const url of urls) {
      const image = Object.assign(new Image(), { crossOrigin: "anonymous", src: url });
      await image.decode();
      const cover = pixels(image);
      let sum = 0;
      for (let i = 0; i < frame.length; i++) if (i % 4 !== 3) sum += Math.abs(frame[i] - cover[i]);
      diffs.push(sum / (64 * 64 * 3));
    }
    return diffs;
  }, [track.imageUrl, other.imageUrl]);
  const [own, others] = differences;
  console.log(`        mean difference a channel: ${own.toFixed(2)} from its cover, ${others.toFixed(2)} from the other`);
  assert(own < 3, `the frame differs from the track's cover by ${own.toFixed(2)} a channel`);
  assert(others > own * 4, `the frame is as close to another cover (${others.toFixed(2)}) as to its own (${own.toFixed(2)})`);
});

test("it seeks near the end and plays to it", async () => {
  const ended = await page.evaluate(async () => {
    const v = document.getElementById("clip");
    v.currentTime = v.duration - 1.5;
    await new Promise((r) => v.addEventListener("seeked", r, { once: true }));
    const after = v.currentTime;
    await v.play();
    for (let i = 0; i < 600 && !v.ended; i++) await new Promise((r) => setTimeout(r, 100));
    return { after, ended: v.ended, time: v.currentTime, duration: v.duration, error: v.error?.message ?? null };
  });
  assert(ended.after >= ended.duration - 1.6, `the seek landed at ${ended.after} of ${ended.duration}`);
  assert(ended.ended && ended.time === ended.duration, `not ended: ${JSON.stringify(ended)}`);
  assert(errors.length === 0, `console errors: ${errors.join("; ")}`);
});

runTests(async () => {
  await chromium.close();
  await site.close();
  await rm(dir, { recursive: true, force: true });
  await emu.stop();
});
