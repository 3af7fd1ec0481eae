// The studio's flows in the demo as a static site (pkg/site/): the same clicks as demo-flows.mjs,
// but the service is the site's service worker (the emulator's wasm build and the companion) and
// the page is served by a plain static file server. What the service received is read through the
// page, under the site's origin: the emulator's request log at ./music/_emulator/, records and
// credits through the companion at ./ts/ (the page holds no key). A song with lyrics and a length;
// stems and a stem's MIDI; timed lyrics; the video; a persona and a song sung with it; a replaced
// window; a looped sound; a mashup of two uploads; fresh links; generate's references, where the
// emulator reads a generated track's files (./music/files/...) as a source, and add-instrumental
// with a generated track as its source. Screenshots go to target/e2e-screenshots/site-flows-*.png.
import { join } from "node:path";
import { SCREENSHOTS, assert, ensureTools, runTests, studioPage, test, writeFile } from "./_lib.mjs";
import { pageFetch, staticSite } from "./_site.mjs";
import { LYRICS, flowSteps, tone } from "./_flows.mjs";

const tools = await ensureTools();
// Stages brisk enough for ten flows, slow enough for the page to see them; no rate limit (as
// demo-flows' emulator): the suite reads records far faster than a musician clicks.
const site = await staticSite({ stageDelayMs: 600, args: ["--rate-limit", "0"] });
const { chromium, page, consoleErrors, shotOf } = await studioPage(tools);
const { flow, until, waitNewTaskComplete, heard, eachPlays, dragWave, refusedAt } = flowSteps(page);

/** The emulator's request log (its admin route, which takes no key), filtered. */
async function requests(filter) {
  const res = await pageFetch(page, "./music/_emulator/requests");
  assert(res.status === 200, `the request log: ${res.status}`);
  return res.json.requests.filter(filter);
}
const sentTo = (op) => requests((r) => r.op === op);
const balance = async () => (await pageFetch(page, "./ts/music/api/v1/generate/credit")).json.data;

/** A record read through the companion, which adds the key. */
async function record(path, taskId) {
  const res = await pageFetch(page, `./ts/music${path}?taskId=${taskId}`);
  assert(res.status === 200, `${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.data;
}

const SUNG = "Velvet voice in the dark\nSing me home";

let songId;
test("a song to work on, in the site: custom mode with lyrics and a length, followed to the end; the studio offers its tracks", async () => {
  await page.goto(`${site.url}/`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 60000 });
  await page.waitForSelector("#conn[data-state=ok]", { timeout: 30000 });
  assert(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)), "the site's service worker controls the page");
  await page.click('#ops label:text-is("Generate")');
  await page.check("#op-form [name=customMode]");
  await page.fill("#op-form [name=prompt]", "");
  await page.fill("#op-form [name=lyrics]", LYRICS);
  await page.fill("#op-form [name=duration]", "30");
  await page.fill("#op-form [name=style]", "synthwave, warm pads, female vocals");
  await page.fill("#op-form [name=title]", "Neon rain");
  await page.click("#go");
  songId = await waitNewTaskComplete("");
  const rec = await record("/api/v1/generate/record-info", songId);
  const param = JSON.parse(rec.param);
  assert(param.lyrics === LYRICS && param.duration === 30, `sent: ${rec.param}`);
  // The tracks live under the site's origin, at the emulator's music host.
  const urls = rec.response.sunoData.map((t) => t.audioUrl);
  assert(urls.length === 2 && urls.every((u) => u.startsWith(`${site.url}/music/files/`)), `the tracks' URLs: ${urls}`);
  const options = await page.$$eval("#studio-track option", (os) => os.map((o) => o.value).filter(Boolean));
  assert(options.length === 2, `the studio offers the song's two tracks: ${options}`);
  await page.fill("#op-form [name=lyrics]", "");
  await page.fill("#op-form [name=duration]", "");
});

flow("stems: split_stem separates the track into stems, each playing, at the price shown; a stem's MIDI drawn as a piano roll", async () => {
  await page.selectOption("#stems-form [name=type]", "split_stem");
  const price = await page.textContent("#tool-stems .tool-cost");
  const before = await balance();
  await page.click("#stems-go");
  await until(() => /\d+ stems?\./.test(document.querySelector("#stems-status").textContent));
  assert(`${before - (await balance())} credits` === price, `charged ${before - (await balance())} credits for the ${price} shown`);
  const names = await page.$$eval("#stems .stem-name", (ns) => ns.map((n) => n.textContent));
  assert(names.length >= 3, `several stems: ${names}`);
  assert((await eachPlays("#stems audio")) === names.length, "every stem plays");
  assert((await sentTo("separateVocals")).at(-1)?.code === 200, "separateVocals answered 200");
  await page.click("#stems .midi-btn >> nth=0");
  await until(() => !document.querySelector("#roll-wrap").hidden);
  const caption = await page.textContent("#roll-caption");
  assert(Number(/(\d+) notes/.exec(caption)?.[1] ?? 0) > 0, `notes found: ${caption}`);
  assert((await sentTo("generateMidi")).at(-1)?.code === 200, "generateMidi answered 200");
  await shotOf("#tool-stems", "site-flows-1-stems.png");
});

flow("timed lyrics: the song's own words, the one being sung highlighted as the track plays", async () => {
  await page.selectOption("#studio-track", { index: 0 });
  await page.click("#karaoke-go");
  await until(() => document.querySelector("#karaoke-words .word"), null, 30000);
  const words = await page.$$eval("#karaoke-words .word", (ws) => ws.map((w) => w.textContent));
  assert(words.join(" ") === LYRICS.split(/\s+/).join(" "), `the song's lyrics: ${words.join(" ")}`);
  const starts = await page.$$eval("#karaoke-words .word", (ws) => ws.map((w) => Number(w.dataset.start)));
  await page.$eval("#karaoke-audio", (a, t) => { a.muted = true; a.currentTime = t; return a.play(); }, starts[2] + 0.05);
  await page.waitForFunction(() => Number(document.querySelector("#karaoke-words .word.now")?.dataset.i) >= 2, null, { timeout: 10000 });
  const first = Number(await page.getAttribute("#karaoke-words .word.now", "data-i"));
  await page.waitForFunction((f) => Number(document.querySelector("#karaoke-words .word.now")?.dataset.i) > f, first, { timeout: 15000 });
  assert((await page.$$eval("#karaoke-words .word.sung", (ws) => ws.length)) >= 2, "earlier words marked sung");
  await page.$eval("#karaoke-audio", (a) => a.pause());
  await shotOf("#tool-karaoke", "site-flows-2-karaoke.png");
});

flow("music video: made, followed, its file an MP4 served by the worker", async () => {
  await page.click("#video-go");
  await until(() => document.querySelector("#video-link a"));
  const src = await page.getAttribute("#video-player", "src");
  const res = await pageFetch(page, src);
  assert(res.status === 200 && /video\/mp4/.test(res.type), `video ${res.status} ${res.type}`);
});

flow("persona: made from the track (a second one refused in the service's words), then a song sung with it", async () => {
  await page.click("#persona-go");
  await until(() => document.querySelector("#persona-result code"), null, 30000);
  const personaId = await page.textContent("#persona-result code");
  assert(personaId.length > 4, `persona id ${personaId}`);
  await page.click("#persona-go");
  const said = await (await page.waitForSelector("#tool-persona .alert", { timeout: 15000 })).innerText();
  assert(/already has a persona/i.test(said), `the refusal in the page's words: ${said}`);
  await page.$$eval(".alert", (ts) => ts.forEach((t) => t.remove()));
  await page.click("#persona-use");
  assert(await page.isChecked("#op-form [name=customMode]"), "custom mode");
  assert((await page.inputValue("#op-form [name=personaId]")) === personaId, "the persona is filled in");
  await page.fill("#op-form [name=prompt]", "");
  await page.fill("#op-form [name=lyrics]", SUNG);
  // 40 s: room for a replaced window of 10 s or more, at most half the track.
  await page.fill("#op-form [name=duration]", "40");
  const before = await page.textContent("#task-id");
  await page.click("#go");
  const id = await waitNewTaskComplete(before);
  const param = JSON.parse((await record("/api/v1/generate/record-info", id)).param);
  assert(param.personaId === personaId && param.customMode === true && param.lyrics === SUNG, `sent with the persona: ${JSON.stringify(param)}`);
  await heard(".track audio");
  await shotOf("#tool-persona", "site-flows-3-persona.png");
});

flow("replace section: a 2 s window refused before anything is sent, then a 12 s window replaced; the new song plays", async () => {
  // The waveform is drawn from the track's file, read from the worker.
  await page.waitForSelector("#replace-wave[data-ready=true]", { timeout: 20000 });
  const sentBefore = (await sentTo("replaceSection")).length;
  await dragWave(2, 4);
  await page.click("#replace-go");
  await page.waitForSelector("#replace-err-infillEndS:not(:empty)");
  assert((await page.getAttribute("#replace-err-infillEndS", "data-rule")) === "range", `refused: ${await page.textContent("#replace-err-infillEndS")}`);
  assert((await sentTo("replaceSection")).length === sentBefore, "nothing sent");
  await dragWave(4, 16);
  await page.waitForFunction(() => document.querySelector("#replace-err-infillEndS").textContent === "");
  assert((await page.inputValue("#replace-form [name=fullLyrics]")).includes("Velvet voice"), "the whole song's lyrics to start from");
  const before = await page.textContent("#task-id");
  await page.click("#replace-go");
  const id = await waitNewTaskComplete(before);
  assert(id !== before, "a new task");
  const sent = (await sentTo("replaceSection")).at(-1);
  assert(sent?.code === 200, `replaceSection answered ${sent?.code}`);
  // The new song is made from the old one's audio: a track of its length, not a song of its own.
  const rec = await record("/api/v1/generate/record-info", id);
  const lengths = rec.response.sunoData.map((t) => t.duration);
  assert(lengths.length >= 1 && lengths.every((d) => Math.abs(d - 40) < 0.5), `the replaced tracks' lengths: ${lengths}`);
  await heard(".track audio");
  await shotOf(".layout", "site-flows-4-replaced.png");
});

flow("sounds: a loop at 92 BPM in A minor plays with <audio loop>, its tempo and key shown", async () => {
  await page.fill("#sounds-form [name=soundTempo]", "92");
  await page.selectOption("#sounds-form [name=soundKey]", "Am");
  await page.check("#sounds-form [name=soundLoop]");
  const before = await page.textContent("#task-id");
  await page.click("#sounds-go");
  await waitNewTaskComplete(before);
  assert((await sentTo("generateSounds")).at(-1)?.code === 200, "generateSounds answered 200");
  const loops = await page.$$eval(".track audio", (as) => as.map((a) => a.loop));
  assert(loops.length >= 1 && loops.every(Boolean), `looped players: ${loops}`);
  const chip = await page.textContent(".track .t-sound");
  assert(/Loop/.test(chip) && /92 BPM/.test(chip) && /Am/.test(chip), `tempo and key shown: ${chip}`);
  await heard(".track audio");
  await shotOf("#task-card", "site-flows-5-sounds.png");
});

flow("mashup: two uploads to the worker's upload host, mixed into a new song that plays", async () => {
  const wavA = join(site.site, "..", `site-mash-a-${Date.now()}.wav`);
  const wavB = join(site.site, "..", `site-mash-b-${Date.now()}.wav`);
  await writeFile(wavA, tone(330, 8));
  await writeFile(wavB, tone(523.25, 8));
  await page.setInputFiles("#mashup-file-0", wavA);
  await page.setInputFiles("#mashup-file-1", wavB);
  await until(() => document.querySelectorAll(".mashup-files [data-done=true]").length === 2, null, 30000);
  const before = await page.textContent("#task-id");
  await page.click("#mashup-go");
  const id = await waitNewTaskComplete(before);
  assert((await sentTo("mashup")).at(-1)?.code === 200, "mashup answered 200");
  // Mixed from the two uploads (8 s each), not a song of its own.
  const lengths = (await record("/api/v1/generate/record-info", id)).response.sunoData.map((t) => t.duration);
  assert(lengths.length >= 1 && lengths.every((d) => Math.abs(d - 8) < 0.5), `the mashup's lengths: ${lengths}`);
  await heard(".track audio");
  await shotOf("#tool-mashup", "site-flows-6-mashup.png");
});

flow("recovery: fresh links for the first song, each one playing", async () => {
  await page.fill("#recovery-form [name=sunoTaskId]", songId);
  await page.click("#recovery-go");
  await until(() => document.querySelector("#recovered li"));
  assert((await sentTo("recoverAudio")).at(-1)?.code === 200, "recoverAudio answered 200");
  assert((await eachPlays("#recovered audio")) >= 1, "a recovered track plays");
});

flow("generate's references: a generated track's audio refused as an image at its field; its cover taken (the worker's own files as sources)", async () => {
  await page.click('#ops label:text-is("Generate")');
  await page.uncheck("#op-form [name=customMode]");
  const track = (await record("/api/v1/generate/record-info", songId)).response.sunoData[0];
  await page.fill("#op-form [name=prompt]", "A song after this picture");
  await page.fill("#op-form [name=lyrics]", "");
  await page.fill("#op-form [name=imageUrls]", track.audioUrl);
  await page.click("#go");
  await refusedAt("imageUrls", /must be an image/);
  await page.fill("#op-form [name=imageUrls]", `${track.imageUrl}\n`);
  const before = await page.textContent("#task-id");
  await page.click("#go");
  const id = await waitNewTaskComplete(before);
  const param = JSON.parse((await record("/api/v1/generate/record-info", id)).param);
  assert(JSON.stringify(param.imageUrls) === JSON.stringify([track.imageUrl]), `sent: ${JSON.stringify(param)}`);
});

flow("add-instrumental with a generated track as its source: the new tracks are mixed from it (its length)", async () => {
  // The companion takes the request (the page never holds the key); the source is a URL of the
  // worker's music host, the same origin as its upload host.
  const rec = await record("/api/v1/generate/record-info", songId);
  const source = rec.response.sunoData[0];
  const res = await pageFetch(page, "./ts/music/api/v1/generate/add-instrumental", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ uploadUrl: source.audioUrl, title: "Backing", tags: "piano", negativeTags: "drums", model: "V4_5PLUS", callBackUrl: "https://example.com/unused" }),
  });
  assert(res.status === 200 && res.json?.data?.taskId, `add-instrumental: ${res.status} ${JSON.stringify(res.json)}`);
  const id = res.json.data.taskId;
  let task;
  for (let i = 0; i < 120; i++) {
    task = await record("/api/v1/generate/record-info", id);
    if (task.status === "SUCCESS" || /FAIL|ERROR/.test(task.status)) break;
    await page.waitForTimeout(500);
  }
  assert(task.status === "SUCCESS", `the task: ${task.status} ${task.errorMessage ?? ""}`);
  const lengths = task.response.sunoData.map((t) => t.duration);
  assert(lengths.every((d) => Math.abs(d - source.duration) < 0.5), `mixed from the ${source.duration} s source: ${lengths}`);
});

flow("uploads from a URL of the site's own files: a generated track and an uploaded file copied; the emulator's own routes refused", async () => {
  const track = (await record("/api/v1/generate/record-info", songId)).response.sunoData[0];
  const fromUrl = (fileUrl) => pageFetch(page, "./ts/upload/api/file-url-upload", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ fileUrl, uploadPath: "site-flows" }),
  });
  const sizeOf = async (u) => page.evaluate(async (url) => (await (await fetch(url)).arrayBuffer()).byteLength, u);
  // A generated track: a file of the music host, under ./music/files/.
  const copied = await fromUrl(track.audioUrl);
  assert(copied.json?.code === 200, `the generated track uploaded: ${JSON.stringify(copied.json)}`);
  assert((await sizeOf(copied.json.data.downloadUrl)) === (await sizeOf(track.audioUrl)), "the copy is the track's bytes");
  // An uploaded file: a file of the upload host, at the origin's root.
  const again = await fromUrl(copied.json.data.downloadUrl);
  assert(again.json?.code === 200, `the upload uploaded again: ${JSON.stringify(again.json)}`);
  assert((await sizeOf(again.json.data.downloadUrl)) === (await sizeOf(track.audioUrl)), "the second copy is the same bytes");
  // Not the emulator's routes: its request log stays its own.
  const logged = consoleErrors.length;
  const log = await fromUrl(new URL("./music/_emulator/requests", `${site.url}/`).href);
  assert(log.json?.code !== 200 && /url_emulator_route/.test(log.json?.msg), `the request log refused: ${JSON.stringify(log.json)}`);
  // The browser logs the refusal's status: expected here, not an error of the page.
  const refusals = consoleErrors.splice(logged);
  assert(refusals.every((e) => /status of 400/.test(e)), `console errors: ${refusals}`);
});

test("no console errors", async () => {
  assert(consoleErrors.length === 0, consoleErrors.join("\n"));
});

await runTests(async () => {
  console.log(`screenshots in ${SCREENSHOTS}`);
  await chromium.close();
  await site.stop();
});
