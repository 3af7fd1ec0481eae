// The demo page as a new user meets it under `cargo xtask demo` (through the demo's companion), in
// headless Chromium: every broken field of a request marked at once with nothing sent; a text file
// named .mp3 refused by its bytes; the test melody long enough for Replace and Persona, and a
// track too short for them said beside them before anything is sent; the service's refusals next
// to their field, the studio never covered; numbers that agree (credits, durations, a reopened
// task's times); typed windows, "Extend this", generated titles, captions and rows that read
// right. Screenshots go to target/e2e-screenshots/newcomer-*.png.
import { join } from "node:path";
import { assert, demoSite, ensureTools, runTests, studioPage, test, wav, writeFile } from "./_lib.mjs";

const tools = await ensureTools();
const emu = await demoSite({ stageDelayMs: 600, companion: true });
const { chromium, page, consoleErrors, shotOf } = await studioPage(tools);
/** The page's requests to the service's hosts, through the companion. */
const toService = [];
page.on("request", (r) => {
  if (/\/ts\/(music|upload)\//.test(r.url())) toService.push(r.url());
});

const admin = async (path) => (await fetch(`${emu.music}${path}`, { headers: { authorization: `Bearer ${emu.key}` } })).json();
const balance = async () => (await admin("/api/v1/generate/credit")).data;
const sentTo = async (op) => (await admin("/_emulator/requests")).requests.filter((r) => r.op === op);
const uploads = async () => (await admin("/_emulator/requests")).requests.filter((r) => r.host === "upload");

async function tab(label) {
  await page.click(`#ops label:text-is("${label}")`);
  await page.waitForFunction((l) => document.querySelector("#go").textContent === l, label);
}

/** Clicks `button`, then waits for the new task on show, through its last stage, with its tracks;
 * a refusal or an error shown meanwhile fails the test (those of earlier tests are cleared first). */
async function createAndWait(button, timeout = 60000) {
  const before = await page.textContent("#task-id");
  await page.$$eval(".alert", (alerts) => alerts.forEach((a) => a.remove()));
  await page.$$eval(".field-error", (slots) => slots.forEach((e) => { e.textContent = ""; }));
  await page.click(button);
  await page.waitForFunction((b) => {
    const id = document.querySelector("#task-id")?.textContent;
    const li = document.querySelector("#timeline li[data-stage=complete]");
    const done = id && id !== b && li?.dataset.state === "done" && document.querySelectorAll(".track").length >= 1;
    return done || document.querySelector(".alert") || [...document.querySelectorAll(".field-error")].some((e) => e.textContent);
  }, before, { timeout });
  const shown = await page.evaluate(() => (document.querySelector(".alert") ?? [...document.querySelectorAll(".field-error")].find((e) => e.textContent))?.innerText);
  if (shown) throw new Error(`the page refused or failed: ${shown.replace(/\s+/g, " ")}`);
  return page.textContent("#task-id");
}

/** The error slots with text in `root`, by field: `{ field: message }`. */
const errorsIn = (root) => page.$$eval(`${root} [data-error-for]`, (slots) =>
  Object.fromEntries(slots.filter((s) => s.textContent).map((s) => [s.dataset.errorFor, s.textContent])));

test("an empty form marks every broken field at once, the first one focused, and sends nothing", async () => {
  await page.goto(`${emu.music}/`);
  await page.waitForSelector("body[data-ready=true]");
  await page.waitForSelector("#conn[data-state=ok]", { timeout: 15000 });
  const before = toService.length;
  await page.fill("#op-form [name=title]", "");
  await page.fill("#op-form [name=tags]", "");
  await page.fill("#op-form [name=negativeTags]", "");
  await page.click("#go");
  await page.waitForSelector("#err-title:not(:empty)");
  const errors = { ...(await errorsIn("#op-form")), ...(await errorsIn("section:has(#h-source)")) };
  for (const field of ["uploadUrl", "title", "tags", "negativeTags"]) assert(errors[field], `${field} marked: ${JSON.stringify(errors)}`);
  assert(/^Audio file/.test(errors.uploadUrl) && /^Title/.test(errors.title), `in the page's words: ${JSON.stringify(errors)}`);
  assert(await page.evaluate(() => document.activeElement?.id === "file"), "the first field of the page (the audio file) is focused");
  assert(toService.length === before, `sent: ${toService.slice(before)}`);
  await shotOf("main", "newcomer-1-every-field.png");
  // Custom mode (V6) needs one of a style, lyrics or words to leave out, the title and the prompt
  // optional: with none, the rule is told once, in the fields' own labels, and nothing else marked.
  await tab("Generate");
  await page.check("#op-form [name=customMode]");
  for (const name of ["prompt", "title", "style", "lyrics", "negativeTags"]) await page.fill(`#op-form [name=${name}]`, "");
  await page.click("#go");
  await page.waitForSelector("#err-style:not(:empty)");
  const custom = await errorsIn("#op-form");
  assert(/one of Style, Lyrics or Leave out is required/.test(custom.style), `the rule, in the page's words: ${JSON.stringify(custom)}`);
  assert(Object.keys(custom).length === 1, `only the missing words marked, not the optional title or prompt: ${JSON.stringify(custom)}`);
  assert(await page.evaluate(() => document.activeElement?.name === "style"), "the style, first of the three, is focused");
  assert(toService.length === before, "nothing sent");
  await page.uncheck("#op-form [name=customMode]");
  await page.fill("#op-form [name=prompt]", "A lazy summer afternoon, lo-fi, vinyl crackle, soft Rhodes");
  await tab("Add instrumental");
  await page.fill("#op-form [name=title]", "Night drive");
  await page.fill("#op-form [name=tags]", "synthwave, warm pads, slow groove");
  await page.fill("#op-form [name=negativeTags]", "heavy metal");
});

test("with no track, timed lyrics go nowhere and Replace names the track before its style", async () => {
  const before = toService.length;
  await page.click("#karaoke-go");
  await page.waitForSelector("#err-studio-audioId:not(:empty)");
  assert(/Pick a track first/.test(await page.textContent("#err-studio-audioId")), "the picker says what is missing");
  assert(toService.length === before, `timed lyrics went to the network: ${toService.slice(before)}`);
  await page.click("#replace-go");
  await page.waitForSelector("#replace-err-tags:not(:empty)");
  assert(/Pick a track first/.test(await page.textContent("#err-studio-audioId")), "the track is named");
  assert(await page.evaluate(() => document.activeElement?.id === "studio-track"), "the track picker, first on the page, is focused");
  assert(toService.length === before, "nothing sent");
  await shotOf("#studio", "newcomer-2-no-track.png");
});

test("a text file named fake.mp3 is refused by its bytes: nothing uploaded, nothing offered", async () => {
  const before = (await uploads()).length;
  const fake = { name: "fake.mp3", mimeType: "audio/mpeg", buffer: Buffer.from("la la la, this is not a song\n".repeat(40)) };
  await page.setInputFiles("#file", fake);
  await page.waitForSelector("#err-uploadUrl:not(:empty)");
  const message = await page.textContent("#err-uploadUrl");
  assert(/fake\.mp3/.test(message) && /not an audio file/.test(message), `message: ${message}`);
  assert(await page.isHidden("#file-details"), "no details of a file offered as a source");
  await page.setInputFiles("#mashup-file-0", fake);
  await page.waitForSelector("#err-mashup-uploadUrlList:not(:empty)");
  assert((await uploads()).length === before, "nothing uploaded");
  await shotOf("section:has(#h-source)", "newcomer-3-not-audio.png");
});

let melodyTask;
test("the test melody is long enough for every studio flow", async () => {
  await page.click("#sample");
  await page.waitForSelector("#file-details:not([hidden])", { timeout: 30000 });
  assert(/44-second/.test(await page.textContent("#sample")), "the button says how long");
  melodyTask = await createAndWait("#go");
  const record = (await admin(`/api/v1/generate/record-info?taskId=${melodyTask}`)).data;
  const seconds = record.response.sunoData.map((t) => t.duration);
  assert(seconds.every((s) => s >= 40), `tracks of ${seconds} s`);
  for (const tool of ["replace", "persona"]) {
    assert(await page.isHidden(`#tool-${tool}-short`), `${tool} says the track is too short`);
    assert(!(await page.isDisabled(`#${tool}-go`)), `${tool} is not offered`);
  }
  // The segment's end starts where the hint says its default is.
  const until = await page.inputValue("#persona-form [name=vocalEnd]");
  const hint = await page.textContent("#persona-f-vocalEnd-hint");
  assert(until === "30" && /default 30/.test(hint), `Until ${until}, hint ${hint}`);
});

test("Persona: a segment past the track's end is refused next to Until; a second persona in the page's words", async () => {
  await page.fill("#persona-form [name=vocalStart]", "30");
  await page.fill("#persona-form [name=vocalEnd]", "50");
  const before = (await sentTo("generatePersona")).length;
  await page.click("#persona-go");
  await page.waitForSelector("#persona-err-vocalEnd:not(:empty)", { timeout: 15000 });
  const message = await page.textContent("#persona-err-vocalEnd");
  assert(/^Until \(s\) must be within the track/.test(message), `next to the field, in its label's words: ${message}`);
  assert((await sentTo("generatePersona")).length === before + 1, "the service's own refusal (422)");
  assert(!(await page.$(".alert")) && !(await page.$(".toast")), "no message elsewhere");
  await shotOf("#tool-persona", "newcomer-4-persona-refused.png");
  await page.fill("#persona-form [name=vocalStart]", "0");
  await page.fill("#persona-form [name=vocalEnd]", "30");
  await page.click("#persona-go");
  await page.waitForSelector("#persona-result code", { timeout: 15000 });
  await page.click("#persona-go");
  const alert = await page.waitForSelector("#tool-persona .alert", { timeout: 15000 });
  const said = await alert.innerText();
  assert(/already has a persona/.test(said) && !/query it/i.test(said), `second persona: ${said}`);
  assert(!(await page.$(".toast")), "nothing covers the studio");
  await shotOf("#tool-persona", "newcomer-5-persona-second.png");
  // "Sing a new song with it" starts the song from lyrics, where V6 sings them (`lyrics`).
  await page.click("#persona-use");
  assert((await page.inputValue("#op-form [name=lyrics]")).trim().length > 0, "lyrics to start from");
  assert(await page.isChecked("#op-form [name=customMode]"), "custom mode");
});

test("Replace: typed times draw the window and let it be played; a short or too long window is refused as typed", async () => {
  await page.waitForSelector("#replace-wave[data-ready=true]", { timeout: 20000 });
  const before = (await sentTo("replaceSection")).length;
  await page.fill("#replace-form [name=infillStartS]", "4");
  await page.fill("#replace-form [name=infillEndS]", "7");
  await page.waitForSelector("#replace-err-infillEndS:not(:empty)");
  // V6: a window of at least 10 s.
  assert(/at least 10 seconds/.test(await page.textContent("#replace-err-infillEndS")), "the package's window rule, before submitting");
  assert(!(await page.isDisabled("#replace-play")), "Play the selection is offered");
  assert(/Selected 4\.00 s to 7\.00 s/.test(await page.textContent("#replace-window")), "the typed window is drawn");
  await page.fill("#replace-form [name=infillEndS]", "30");
  await page.waitForFunction(() => /half the track/.test(document.querySelector("#replace-err-infillEndS").textContent));
  await shotOf("#tool-replace", "newcomer-6-replace-typed.png");
  // 12 s: at least 10 s, at most half of the 44 s melody.
  await page.fill("#replace-form [name=infillEndS]", "16");
  await page.waitForFunction(() => document.querySelector("#replace-err-infillEndS").textContent === "");
  await page.click("#replace-play");
  await page.waitForFunction(() => {
    const a = document.querySelector("#replace-audio");
    return a && !a.paused && a.currentTime >= 4;
  }, null, { timeout: 15000 });
  await page.$eval("#replace-audio", (a) => a.pause());
  assert((await sentTo("replaceSection")).length === before, "nothing sent while choosing");
  await createAndWait("#replace-go");
  assert((await sentTo("replaceSection")).at(-1)?.code === 200, "the replaced window is made");
});

test("credits: the header follows every create, covers and WAV included", async () => {
  await page.click("#covers-btn");
  await page.waitForFunction(() => document.querySelectorAll("#covers img").length === 2, null, { timeout: 60000 });
  let expected = (await balance()).toLocaleString("en");
  await page.waitForFunction((e) => document.querySelector("#credits").textContent === e, expected, { timeout: 10000 });
  await page.click(".track .t-actions button:has-text('Convert to WAV')");
  await page.waitForSelector(".wav-link", { timeout: 60000 });
  expected = (await balance()).toLocaleString("en");
  await page.waitForFunction((e) => document.querySelector("#credits").textContent === e, expected, { timeout: 10000 });
});

test("Extend this names the track by its title, and the title's counter counts what it holds", async () => {
  await page.click(".track .extend");
  assert(await page.isChecked("#op-extend"), "the Extend tab");
  const chosen = await page.$eval("#op-form [name=audioId]", (s) => s.selectedOptions[0]?.textContent ?? "");
  const trackTitle = await page.textContent(".track .t-title");
  assert(chosen.startsWith(trackTitle), `the chosen track reads "${chosen}"`);
  const title = await page.inputValue("#op-form [name=title]");
  const hint = await page.textContent("#f-title-hint");
  assert(title.length > 0 && hint.includes(`(${title.length} of `), `title "${title}" (${title.length}), hint "${hint}"`);
  await shotOf("#op-form", "newcomer-7-extend.png");
});

test("a reopened task keeps its creation time, and invents no stage times", async () => {
  const entry = async () => page.evaluate((id) => JSON.parse(localStorage.getItem("tunesmith-demo.tasks")).find((h) => h.id === id), melodyTask);
  const first = await entry();
  await page.click(`#history li[data-id="${melodyTask}"] button`);
  await page.waitForFunction((id) => document.querySelector("#task-id").textContent === id
    && document.querySelector("#timeline li[data-stage=complete]").dataset.state === "done", melodyTask, { timeout: 20000 });
  // Long enough for a replayed stage to be noticed.
  await page.waitForTimeout(1500);
  const times = await page.$$eval("#timeline time", (ts) => ts.map((t) => t.textContent));
  assert(!times.some((t) => /\+0\.0 s/.test(t)), `stage times of a reopened task: ${times}`);
  assert(times.every((t) => t === ""), `stages that passed before this visit have no time: ${times}`);
  assert((await entry()).at === first.at, `created ${first.at}, now listed at ${(await entry()).at}`);
  const { offered, made } = await page.$eval(`#recovery-ids option[value="${melodyTask}"]`, (o, at) => ({ offered: o.label, made: new Date(at).toLocaleString() }), first.at);
  assert(offered.endsWith(made), `Recovery offers "${offered}" for a task made ${made}`);
  await shotOf("#task-card", "newcomer-8-reopened.png");
});

test("a track too short for Replace and Persona is said beside them, and nothing is sent", async () => {
  const short = join(emu.site, "..", `short-${Date.now()}.wav`);
  await writeFile(short, wav(6.6));
  await page.setInputFiles("#file", short);
  await page.waitForFunction(() => /short-/.test(document.querySelector("#file-details")?.textContent ?? ""), null, { timeout: 30000 });
  await tab("Add instrumental");
  await createAndWait("#go");
  await page.waitForSelector("#tool-replace-short:not([hidden])");
  const replace = await page.textContent("#tool-replace-short");
  assert(/6\.6 s/.test(replace) && /at least 20 s/.test(replace), `beside Replace: ${replace}`);
  assert(await page.isDisabled("#replace-go"), "Replace is not offered");
  const persona = await page.textContent("#tool-persona-short");
  assert(/at least 10 s/.test(persona), `beside Persona: ${persona}`);
  assert(await page.isDisabled("#persona-go"), "Persona is not offered");
  await shotOf("#tool-replace", "newcomer-9-too-short.png");
  // The player and the label agree on the length (6.6 s is 0:06 in both).
  await page.waitForFunction(() => Number.isFinite(document.querySelector(".track audio")?.duration));
  const { label, player } = await page.$eval(".track", (t) => ({ label: t.querySelector(".t-dur").textContent, player: t.querySelector("audio").duration }));
  assert(label === `0:${String(Math.floor(player)).padStart(2, "0")}`, `Duration ${label} beside a player of ${player} s`);
});

test("a sound's title, made from its prompt, ends on a whole word", async () => {
  await page.fill("#sounds-form [name=prompt]", "Dusty boom-bap drum loop with vinyl crackle, warm tape hiss and a lazy swung hi-hat pattern");
  await createAndWait("#sounds-go");
  const title = await page.$eval("#history li .h-title", (t) => t.textContent);
  assert(title.length <= 61 && /^Dusty boom-bap/.test(title), `title: ${title}`);
  const words = "Dusty boom-bap drum loop with vinyl crackle, warm tape hiss and a lazy swung hi-hat pattern".split(" ");
  const kept = title.replace(/…$/, "").split(" ");
  assert(kept.every((w, i) => w === words[i] || `${w},` === words[i]), `cut inside a word: ${title}`);
});

test("rows and captions read right: no dangling dot, a stem named once", async () => {
  const rows = await page.$$eval("#history li", (lis) => lis.map((li) => li.innerText));
  assert(rows.length >= 3 && rows.every((r) => !/·\s*(\n|$)/.test(r)), `task rows: ${JSON.stringify(rows)}`);
  await page.selectOption("#studio-track", { index: 0 });
  await page.selectOption("#stems-form [name=type]", "split_stem");
  await page.click("#stems-go");
  await page.waitForFunction(() => /\d+ stems?\./.test(document.querySelector("#stems-status").textContent), null, { timeout: 60000 });
  await page.click('#stems li[data-stem="Bass"] .midi-btn');
  await page.waitForSelector("#roll-wrap:not([hidden])", { timeout: 60000 });
  const caption = await page.textContent("#roll-caption");
  assert(/^Bass: \d+ notes/.test(caption) && !/\(Bass\)/.test(caption), `caption: ${caption}`);
});

test("a video the browser cannot play is said in plain words, not as the demuxer's error", async () => {
  await page.click("#video-go");
  await page.waitForSelector("#video-link a", { timeout: 60000 });
  // Whatever the emulator's file is, a source the browser cannot decode takes the page's own path.
  await page.$eval("#video-player", (v) => { v.hidden = false; v.src = new URL("style.css", location.href).href; });
  await page.waitForSelector("#video-player[hidden]", { state: "attached" });
  await page.waitForFunction(() => document.querySelector("#video-note").textContent !== "");
  const note = await page.textContent("#video-note");
  assert(/cannot play this video/.test(note) && !/MediaError|DEMUXER|FFmpeg|PIPELINE/i.test(note), `note: ${note}`);
  await shotOf("#tool-video", "newcomer-10-video.png");
});

test("no console errors", async () => {
  assert(consoleErrors.length === 0, consoleErrors.join("\n"));
});

await runTests(async () => {
  await chromium.close();
  await emu.stop();
});
