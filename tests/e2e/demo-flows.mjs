// The studio's flows end to end in headless Chromium, each from a musician's click to something
// heard or seen: stems separated and each one playing; the MIDI of a stem drawn as a piano roll and
// played along; a section of the track's waveform selected, a too-short window refused before
// anything is sent (V6: at least 10 s), a 12 s window replaced and the result playing, a track too
// short for any window refused beside the tool; timed lyrics lit word by word as the track plays
// (the song's own lyrics, sent with a length in custom mode); the music video; a persona, then a
// song sung with it (its starter lyrics in `lyrics`); a looped sound at a tempo and key; a mashup
// of two uploads; fresh links for an older song. generate's references of non-custom mode, a wrong
// one refused at its field. Screenshots go to target/e2e-screenshots/flows-*.png.
import { join } from "node:path";
import { SCREENSHOTS, assert, demoSite, ensureTools, runTests, studioPage, test, writeFile } from "./_lib.mjs";
import { LYRICS, flowSteps, tone } from "./_flows.mjs";

const tools = await ensureTools();
// Stages brisk enough for ten flows, slow enough for polling to see them.
const emu = await demoSite({ stageDelayMs: 600 });
const { chromium, page, consoleErrors, shotOf } = await studioPage(tools);
const shot = (name) => page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });
const { flow, until, waitNewTaskComplete, heard, eachPlays, dragWave, refusedAt } = flowSteps(page);

async function requests(filter) {
  const { requests } = await (await fetch(`${emu.music}/_emulator/requests`)).json();
  return requests.filter(filter);
}
const sentTo = (op) => requests((r) => r.op === op);
const balance = async () => (await (await fetch(`${emu.music}/api/v1/generate/credit`, { headers: { authorization: `Bearer ${emu.key}` } })).json()).data;

async function record(path, taskId) {
  const res = await fetch(`${emu.music}${path}?taskId=${taskId}`, { headers: { authorization: `Bearer ${emu.key}` } });
  return (await res.json()).data;
}

const REFERENCES = ["imageUrls", "videoUrls", "audioUrls"];
const isShown = (name) => page.isVisible(`#op-form [data-field=${name}]`);

let songId;
test("a song to work on: custom mode with lyrics and a length (V6), followed to the end; the studio offers its tracks", async () => {
  await page.goto(`${emu.music}/?key=${emu.key}`);
  await page.waitForSelector("body[data-ready=true]");
  await page.waitForSelector("#conn[data-state=ok]", { timeout: 15000 });
  await page.click('#ops label:text-is("Generate")');
  await page.check("#op-form [name=customMode]");
  // Custom mode takes lyrics and a length; the references are of the other mode, hidden.
  for (const name of ["lyrics", "duration"]) assert(await isShown(name), `${name} shown in custom mode`);
  for (const name of REFERENCES) assert(!(await isShown(name)), `${name} hidden in custom mode`);
  await page.fill("#op-form [name=prompt]", "");
  await page.fill("#op-form [name=lyrics]", LYRICS);
  await page.fill("#op-form [name=duration]", "30");
  await page.fill("#op-form [name=style]", "synthwave, warm pads, female vocals");
  await page.fill("#op-form [name=title]", "Neon rain");
  assert(/lyrics: "Neon rain/.test(await page.textContent("#code")) && /duration: 30/.test(await page.textContent("#code")), "the sample shows them");
  await page.click("#go");
  songId = await waitNewTaskComplete("");
  const rec = await record("/api/v1/generate/record-info", songId);
  const param = JSON.parse(rec.param);
  assert(param.lyrics === LYRICS && param.duration === 30 && !REFERENCES.some((n) => n in param), `sent: ${rec.param}`);
  const lengths = rec.response.sunoData.map((t) => t.duration);
  assert(lengths.length === 2 && lengths.every((d) => d === 30), `tracks of the length asked: ${lengths}`);
  const options = await page.$$eval("#studio-track option", (os) => os.map((o) => o.value).filter(Boolean));
  assert(options.length === 2, `the studio offers the song's two tracks: ${options}`);
  // The next song (the persona's) starts from the page's own lyrics: none left over.
  await page.fill("#op-form [name=lyrics]", "");
  await page.fill("#op-form [name=duration]", "");
});

flow("stems: split_stem separates the track into stems, each with a player that plays, at the price shown", async () => {
  // split_stem is preselected: its price, not the two-stem one, is shown from the start.
  const shown = await page.textContent("#tool-stems .tool-cost");
  await page.selectOption("#stems-form [name=type]", "separate_vocal");
  const twoStems = await page.textContent("#tool-stems .tool-cost");
  await page.selectOption("#stems-form [name=type]", "split_stem");
  assert(shown === "10 credits" && twoStems === "5 credits", `prices shown: split_stem ${shown}, separate_vocal ${twoStems}`);
  assert((await page.textContent("#tool-stems .tool-cost")) === "10 credits", "the price follows the type back");
  assert(await page.isHidden("#stems-form [data-field=stemName]"), "the instrument picker shows only with the advanced type");
  const before = await balance();
  await page.click("#stems-go");
  await until(() => /\d+ stems?\./.test(document.querySelector("#stems-status").textContent));
  assert(before - (await balance()) === 10, `charged ${before - (await balance())} credits for the 10 shown`);
  const names = await page.$$eval("#stems .stem-name", (ns) => ns.map((n) => n.textContent));
  assert(names.length >= 3, `several stems: ${names}`);
  const played = await eachPlays("#stems audio");
  assert(played === names.length, `${played} of ${names.length} stems played`);
  const sent = (await sentTo("separateVocals")).at(-1);
  assert(sent?.code === 200, `separateVocals answered ${sent?.code}`);
  await shotOf("#tool-stems", "flows-1-stems.png");
});

flow("stems: split_stem_advanced with an instrument picked isolates that instrument", async () => {
  await page.selectOption("#stems-form [name=type]", "split_stem_advanced");
  assert(await page.isVisible("#stems-form [name=stemName]"), "the instrument picker shows");
  await page.selectOption("#stems-form [name=stemName]", "Piano");
  await page.click("#stems-go");
  await until(() => /\d+ stems?\./.test(document.querySelector("#stems-status").textContent));
  assert((await page.textContent("#stems-status")) === "1 stem.", `one stem: ${await page.textContent("#stems-status")}`);
  const names = await page.$$eval("#stems .stem-name", (ns) => ns.map((n) => n.textContent));
  assert(names.some((n) => /piano/i.test(n)), `the Piano stem is listed: ${names}`);
  await eachPlays("#stems audio");
  await shotOf("#tool-stems", "flows-1b-stem-advanced.png");
});

flow("MIDI: a stem's notes drawn as a piano roll, and played along with the stem", async () => {
  const buttons = await page.$$("#stems .midi-btn");
  assert(buttons.length >= 1, "a stem offers its MIDI");
  await buttons[0].click();
  await until(() => !document.querySelector("#roll-wrap").hidden);
  const caption = await page.textContent("#roll-caption");
  const count = Number(/(\d+) notes/.exec(caption)?.[1] ?? 0);
  assert(count > 0, `notes found: ${caption}`);
  // Painted notes: pixels in the note colours, not just the grid.
  const painted = await page.$eval("#roll", (c) => {
    const { data } = c.getContext("2d").getImageData(0, 0, c.width, c.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 80) n++;
    return n;
  });
  assert(painted > 200, `notes painted on the roll (${painted} coloured pixels)`);
  const sent = (await sentTo("generateMidi")).at(-1);
  assert(sent?.code === 200, `generateMidi answered ${sent?.code}`);
  await page.click("#roll-play");
  await page.waitForFunction(() => [...document.querySelectorAll("#stems audio")].some((a) => !a.paused && a.currentTime > 0.5), null, { timeout: 15000 });
  await shotOf("#tool-midi", "flows-2-midi.png");
  await page.click("#roll-play");
});

flow("timed lyrics: the word being sung is highlighted as the track plays", async () => {
  await page.selectOption("#studio-track", { index: 0 });
  await page.click("#karaoke-go");
  await until(() => document.querySelector("#karaoke-words .word"), null, 15000);
  const starts = await page.$$eval("#karaoke-words .word", (ws) => ws.map((w) => Number(w.dataset.start)));
  // The words are the lyrics the song was made with.
  const words = await page.$$eval("#karaoke-words .word", (ws) => ws.map((w) => w.textContent));
  assert(words.join(" ") === LYRICS.split(/\s+/).join(" "), `the song's lyrics: ${words.join(" ")}`);
  assert(starts.length >= 5, `words: ${starts.length}`);
  await page.$eval("#karaoke-audio", (a, t) => { a.muted = true; a.currentTime = t; return a.play(); }, starts[2] + 0.05);
  await page.waitForFunction(() => Number(document.querySelector("#karaoke-words .word.now")?.dataset.i) >= 2, null, { timeout: 10000 });
  const first = Number(await page.getAttribute("#karaoke-words .word.now", "data-i"));
  await page.waitForFunction((f) => Number(document.querySelector("#karaoke-words .word.now")?.dataset.i) > f, first, { timeout: 15000 });
  const sung = await page.$$eval("#karaoke-words .word.sung", (ws) => ws.length);
  assert(sung >= 2, `earlier words marked sung: ${sung}`);
  await shotOf("#tool-karaoke", "flows-4-karaoke.png");
  await page.$eval("#karaoke-audio", (a) => a.pause());
});

flow("music video: made, followed, shown in a <video> whose file is an MP4", async () => {
  await page.click("#video-go");
  await until(() => document.querySelector("#video-link a"));
  const src = await page.getAttribute("#video-player", "src");
  const res = await page.request.get(src);
  assert(res.status() === 200 && /video\/mp4/.test(res.headers()["content-type"]), `video ${res.status()} ${res.headers()["content-type"]}`);
  const link = await page.getAttribute("#video-link a", "href");
  assert(link === src, "a download link to the same file");
  await page.waitForTimeout(500);
  await shotOf("#tool-video", "flows-5-video.png");
});

flow("persona: made from the track (a second one refused in the service's words), then a song sung with it (custom mode, its personaId)", async () => {
  await page.click("#persona-go");
  await until(() => document.querySelector("#persona-result code"), null, 15000);
  const personaId = await page.textContent("#persona-result code");
  assert(personaId.length > 4, `persona id ${personaId}`);
  await shotOf("#tool-persona", "flows-6-persona.png");
  // A second persona of the same track: the service refuses it, and the page says so in its own
  // words, inside the tool (nothing covers the studio), with no advice to "query" anything.
  await page.click("#persona-go");
  const alert = await page.waitForSelector("#tool-persona .alert", { timeout: 15000 });
  const said = await alert.innerText();
  assert(/already has a persona/i.test(said) && !/query it/i.test(said), `the refusal in the page's words: ${said}`);
  assert(!(await page.$(".toast")), "no toast over the studio");
  await page.locator("#tool-persona").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SCREENSHOTS, "flows-6c-persona-refused.png") });
  await page.$$eval(".alert", (ts) => ts.forEach((t) => t.remove()));
  await page.click("#persona-use");
  assert(await page.isChecked("#op-generate"), "the Generate tab is open");
  assert(await page.isChecked("#op-form [name=customMode]"), "custom mode");
  assert((await page.inputValue("#op-form [name=personaId]")) === personaId, "the persona is filled in");
  // Lyrics to start from, where V6 sings them (`lyrics`, not the prompt), selected for typing over.
  const starter = await page.inputValue("#op-form [name=lyrics]");
  assert(/\[Verse\]/.test(starter) && (await page.inputValue("#op-form [name=prompt]")) === "", `starter lyrics in lyrics, none in the prompt: ${starter}`);
  assert(await page.$eval("#op-form [name=lyrics]", (t) => document.activeElement === t && t.selectionEnd - t.selectionStart === t.value.length), "the starter lyrics are focused and selected");
  await page.keyboard.type("Velvet voice in the dark\nSing me home");
  // 40 s: room for the replaced windows below (at least 10 s, at most half the track).
  await page.fill("#op-form [name=duration]", "40");
  const before = await page.textContent("#task-id");
  await page.click("#go");
  const id = await waitNewTaskComplete(before);
  const param = JSON.parse((await record("/api/v1/generate/record-info", id)).param);
  assert(param.personaId === personaId && param.customMode === true, `sent with the persona: ${JSON.stringify(param)}`);
  assert(param.lyrics === "Velvet voice in the dark\nSing me home" && !("prompt" in param), `sung: the lyrics typed: ${JSON.stringify(param)}`);
  await heard(".track audio");
  await shotOf(".layout", "flows-6b-persona-song.png");
});

flow("replace section: a 2 s window dragged on the waveform is refused (V6: at least 10 s) before anything is sent", async () => {
  await page.waitForSelector("#replace-wave[data-ready=true]", { timeout: 20000 });
  const before = (await sentTo("replaceSection")).length;
  await dragWave(2, 4);
  const shown = await page.textContent("#replace-window");
  assert(/Selected \d+\.\d\d s to \d+\.\d\d s/.test(shown), `start and end with two decimals: ${shown}`);
  const start = Number(await page.inputValue("#replace-form [name=infillStartS]"));
  const end = Number(await page.inputValue("#replace-form [name=infillEndS]"));
  assert(Math.abs(start - 2) < 0.2 && Math.abs(end - 4) < 0.2, `window ${start} to ${end}`);
  // The keyboard moves the selection too: a tenth of a second per arrow press.
  await page.focus("#replace-wave");
  await page.keyboard.press("ArrowRight");
  const moved = await page.textContent("#replace-window");
  assert(moved.includes(`${(start + 0.1).toFixed(2)} s to ${(end + 0.1).toFixed(2)} s`), `moved by the keyboard: ${moved}`);
  await page.click("#replace-go");
  await page.waitForSelector("#replace-err-infillEndS:not(:empty)");
  const message = await page.textContent("#replace-err-infillEndS");
  assert(/at least 10 seconds/.test(message), `the package's own words: ${message}`);
  assert((await page.getAttribute("#replace-err-infillEndS", "data-rule")) === "range", "the package's rule: range");
  assert((await page.getAttribute("#replace-form [name=infillEndS]", "aria-invalid")) === "true", "the end is marked invalid");
  assert((await sentTo("replaceSection")).length === before, "nothing sent");
  await shotOf("#tool-replace", "flows-3-replace-refused.png");
});

flow("replace section: a 9 s window refused, then a 12 s window replaced; the new song is followed and plays", async () => {
  // Long enough before V6 (6 s), not since: refused in the same words.
  await dragWave(4, 13);
  await page.waitForFunction(() => /\(got (8\.[5-9]|9(\.\d+)?)\)/.test(document.querySelector("#replace-err-infillEndS").textContent));
  assert(/at least 10 seconds/.test(await page.textContent("#replace-err-infillEndS")), "9 s: too short");
  await dragWave(4, 16);
  await page.waitForFunction(() => document.querySelector("#replace-err-infillEndS").textContent === "");
  const before = await page.textContent("#task-id");
  const lyrics = await page.inputValue("#replace-form [name=fullLyrics]");
  // The song on show is the persona's: its lyrics, and its title marked once.
  assert(lyrics === "Velvet voice in the dark\nSing me home", `the whole song's lyrics to start from: ${lyrics}`);
  const titled = await page.inputValue("#replace-form [name=title]");
  assert(/\S \(new section\)$/.test(titled), `the title to start from: ${titled}`);
  await page.click("#replace-go");
  // The new song on show: the tool still says what it is doing.
  await until((b) => document.querySelector("#task-id").textContent !== b, before);
  const replacing = await page.textContent("#replace-status");
  assert(/^Replacing \d+\.\d\d s to \d+\.\d\d s/.test(replacing), `the status while the new song is made: "${replacing}"`);
  const id = await waitNewTaskComplete(before);
  const sent = (await sentTo("replaceSection")).at(-1);
  assert(sent?.code === 200, `replaceSection answered ${sent?.code}`);
  await heard(".track audio");
  await page.waitForSelector("#replace-wave[data-ready=true]", { timeout: 20000 });
  await shotOf(".layout", "flows-3b-replaced.png");
  assert(id !== songId, "a new task");
  // Ready for the next replace: the title says "(new section)" once, the whole lyrics are the song's.
  const title = await page.inputValue("#replace-form [name=title]");
  assert(title === titled, `the next replace's title: ${title}, after ${titled}`);
  const next = await page.inputValue("#replace-form [name=fullLyrics]");
  assert(next === lyrics, `the next replace's whole lyrics: ${next}`);
});

flow("sounds: a loop at 92 BPM in A minor plays with <audio loop>, its tempo and key shown", async () => {
  await page.fill("#sounds-form [name=soundTempo]", "92");
  await page.selectOption("#sounds-form [name=soundKey]", "Am");
  await page.check("#sounds-form [name=soundLoop]");
  const before = await page.textContent("#task-id");
  await page.click("#sounds-go");
  const id = await waitNewTaskComplete(before);
  const sent = (await sentTo("generateSounds")).at(-1);
  assert(sent?.code === 200, `generateSounds answered ${sent?.code}`);
  const loops = await page.$$eval(".track audio", (as) => as.map((a) => a.loop));
  assert(loops.length >= 1 && loops.every(Boolean), `looped players: ${loops}`);
  const chip = await page.textContent(".track .t-sound");
  assert(/Loop/.test(chip) && /92 BPM/.test(chip) && /Am/.test(chip), `tempo and key shown: ${chip}`);
  await heard(".track audio");
  await page.locator(".track").first().scrollIntoViewIfNeeded();
  await shotOf("#task-card", "flows-7-sounds.png");
  assert(id, "a sound task");
});

let wavA;
let wavB;
flow("mashup: two uploads mixed into a new song that plays", async () => {
  wavA = join(emu.site, "..", `mash-a-${Date.now()}.wav`);
  wavB = join(emu.site, "..", `mash-b-${Date.now()}.wav`);
  await writeFile(wavA, tone(330, 8));
  await writeFile(wavB, tone(523.25, 8));
  await page.setInputFiles("#mashup-file-0", wavA);
  await page.setInputFiles("#mashup-file-1", wavB);
  await until(() => document.querySelectorAll(".mashup-files [data-done=true]").length === 2, null, 30000);
  const before = await page.textContent("#task-id");
  await page.click("#mashup-go");
  await waitNewTaskComplete(before);
  const sent = (await sentTo("mashup")).at(-1);
  assert(sent?.code === 200, `mashup answered ${sent?.code}`);
  await heard(".track audio");
  await shotOf("#tool-mashup", "flows-8-mashup.png");
  await shotOf("#task-card", "flows-8b-mashup-song.png");
});

flow("recovery: fresh links for the first song, each one playing", async () => {
  await page.fill("#recovery-form [name=sunoTaskId]", songId);
  await page.click("#recovery-go");
  await until(() => document.querySelector("#recovered li"));
  const sent = (await sentTo("recoverAudio")).at(-1);
  assert(sent?.code === 200, `recoverAudio answered ${sent?.code}`);
  const played = await eachPlays("#recovered audio");
  assert(played >= 1, "a recovered track plays");
  await shotOf("#tool-recovery", "flows-9-recovery.png");
});

flow("players know their length before they are played; stem players are wide enough to seek", async () => {
  // Every player with a file, played or not: its metadata loaded, so it shows its length, not 0:00.
  await page.waitForFunction(() => [...document.querySelectorAll("audio[src]")].every((a) => a.readyState >= 1 && Number.isFinite(a.duration) && a.duration > 0), null, { timeout: 15000 })
    .catch(() => {});
  const players = await page.$$eval("audio[src]", (as) => as.map((a) => ({ id: a.id || a.closest("[id]")?.id, ready: a.readyState, duration: a.duration, preload: a.preload })));
  const unknown = players.filter((p) => !(p.ready >= 1 && Number.isFinite(p.duration) && p.duration > 0));
  assert(players.length >= 6 && unknown.length === 0, `players without their length: ${JSON.stringify(unknown)}`);
  const widths = await page.$$eval("#stems audio", (as) => as.map((a) => a.getBoundingClientRect().width));
  assert(widths.length >= 1 && widths.every((w) => w >= 280), `stem players' widths: ${widths}`);
  await page.locator("#tool-stems").scrollIntoViewIfNeeded();
  await shotOf("#tool-stems", "flows-polish-stems.png");
  await shotOf("#tool-mashup", "flows-polish-mashup.png");
  // The mashup's file pickers: the page's buttons, not the browser's default grey one.
  const picker = await page.$eval("#mashup-file-0", (i) => {
    const b = getComputedStyle(i, "::file-selector-button");
    return { radius: parseFloat(b.borderTopLeftRadius), cursor: b.cursor };
  });
  assert(picker.radius >= 8 && picker.cursor === "pointer", `the file picker's button: ${JSON.stringify(picker)}`);
});

flow("two tracks are told apart as Track 1 and Track 2, on their cards and in the pickers", async () => {
  const numbers = await page.$$eval(".track .t-num", (ns) => ns.map((n) => n.textContent));
  assert(JSON.stringify(numbers) === JSON.stringify(["Track 1", "Track 2"]), `cards: ${numbers}`);
  const options = await page.$$eval("#studio-track option", (os) => os.map((o) => o.textContent));
  assert(/Track 1/.test(options[0]) && /Track 2/.test(options[1]), `the studio's picker: ${options}`);
  await shotOf("#task-card", "flows-polish-tracks.png");
});

flow("a checkbox is named by its label's name, not its whole aside; the recovery speaks the page's words", async () => {
  // V6's mashup is custom unless told otherwise and needs no words; told otherwise, its prompt is
  // a description of at most 3000 characters, a rule that names the checkbox.
  await page.uncheck("#mashup-form [name=customMode]");
  const prompt = await page.inputValue("#mashup-form [name=prompt]");
  await page.fill("#mashup-form [name=prompt]", "la ".repeat(1001));
  const before = (await sentTo("mashup")).length;
  await page.click("#mashup-go");
  await page.waitForSelector("#mashup-err-prompt:not(:empty)");
  const message = await page.textContent("#mashup-err-prompt");
  assert(/Custom mode is false/.test(message) && !/are mine/.test(message), `message: ${message}`);
  assert((await sentTo("mashup")).length === before, "nothing sent");
  await page.fill("#mashup-form [name=prompt]", prompt);
  const words = await page.$$eval("#recovered li", (lis) => lis.map((li) => li.textContent));
  assert(words.length >= 1 && words.every((w) => !/\bsuccess\b/i.test(w)), `recovered tracks: ${words}`);
  assert(!/\bsuccess\b/i.test(await page.textContent("#recovery-status")), `status: ${await page.textContent("#recovery-status")}`);
});

flow("the request sample reads as JavaScript: keys unquoted", async () => {
  const code = await page.textContent("#code");
  assert(/^\s+[A-Za-z_$][\w$]*: /m.test(code) && !/"[A-Za-z_$][\w$]*":/.test(code), `sample:\n${code}`);
});

flow("every button's accessible name holds its visible text (WCAG 2.5.3)", async () => {
  const named = await page.$$eval("button[aria-label]", (bs) => bs.map((b) => ({ label: b.getAttribute("aria-label"), text: b.innerText.trim() })));
  assert(named.some((b) => /MIDI piano roll/.test(b.text)), "a stem's MIDI button is on the page");
  const bad = named.filter((b) => /[a-z]/i.test(b.text) && !b.label.toLowerCase().includes(b.text.replace(/^[^a-z0-9]+/i, "").toLowerCase()));
  assert(bad.length === 0, `names without their visible text: ${JSON.stringify(bad)}`);
});

flow("the studio on a phone: no horizontal scroll", async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  const { overflow, culprits } = await page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const culprits = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > w + 1 && e.getBoundingClientRect().width > 0)
      .slice(0, 8).map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`);
    // Text that runs out of its box (a long word, an id) shows as its parent.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const r = range.getBoundingClientRect();
      if (r.width > 0 && r.right > w + 1 && !node.parentElement.closest("#code")) culprits.push(`text in ${node.parentElement.tagName.toLowerCase()}#${node.parentElement.id}.${node.parentElement.className}: ${node.textContent.slice(0, 40)}`);
    }
    return { overflow: document.documentElement.scrollWidth - w, culprits };
  });
  assert(overflow <= 0, `horizontal overflow of ${overflow}px: ${culprits.join(", ")}`);
  await page.locator("#studio").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SCREENSHOTS, "flows-10-phone.png") });
  await page.setViewportSize({ width: 1360, height: 900 });
});

flow("generate's references (V6): of non-custom mode only, sent as lists; a file of the wrong kind refused at its field", async () => {
  await page.click('#ops label:text-is("Generate")');
  await page.uncheck("#op-form [name=customMode]");
  for (const name of REFERENCES) assert(await isShown(name), `${name} shown in non-custom mode`);
  // The persona's song left its persona here: of custom mode too.
  for (const name of ["duration", "styleWeight", "personaId"]) assert(!(await isShown(name)), `${name} hidden in non-custom mode`);
  const track = (await record("/api/v1/generate/record-info", songId)).response.sunoData[0];
  await page.fill("#op-form [name=prompt]", "A song after this picture");
  await page.fill("#op-form [name=lyrics]", "");
  // A track's audio is no image: the service's refusal shows at the field, in its words.
  await page.fill("#op-form [name=imageUrls]", track.audioUrl);
  await page.click("#go");
  await refusedAt("imageUrls", /must be an image/);
  await page.screenshot({ path: join(SCREENSHOTS, "flows-references-refused.png") });
  // Its cover is one: sent as a list of one URL, nothing of custom mode with it.
  await page.fill("#op-form [name=imageUrls]", `${track.imageUrl}\n`);
  assert(/imageUrls: \[/.test(await page.textContent("#code")), "the sample sends a list");
  const before = await page.textContent("#task-id");
  await page.click("#go");
  const id = await waitNewTaskComplete(before);
  const param = JSON.parse((await record("/api/v1/generate/record-info", id)).param);
  assert(JSON.stringify(param.imageUrls) === JSON.stringify([track.imageUrl]), `sent: ${JSON.stringify(param)}`);
  assert(!["duration", "styleWeight", "personaId"].some((n) => n in param) && param.customMode === false, `no custom field: ${JSON.stringify(param)}`);
});

flow("replace section: a 15 s track is too short for any window (two of the shortest, 10 s since V6), said beside the tool", async () => {
  await page.click('#ops label:text-is("Generate")');
  await page.check("#op-form [name=customMode]");
  for (const [name, value] of [["prompt", ""], ["personaId", ""], ["lyrics", LYRICS], ["duration", "15"], ["style", "lo-fi"], ["title", "Short one"]]) {
    await page.fill(`#op-form [name=${name}]`, value);
  }
  const before = await page.textContent("#task-id");
  await page.click("#go");
  await waitNewTaskComplete(before);
  // The studio has the new track: the waveform says its length.
  await page.waitForFunction(() => /^15\.00 s/.test(document.querySelector("#replace-wave-note").textContent), null, { timeout: 20000 });
  const note = await page.textContent("#tool-replace-short");
  assert(await page.isVisible("#tool-replace-short"), `the note beside the tool is shown: "${note}"`);
  assert(/lasts 15\.0 s/.test(note) && /at least 10 s/.test(note) && /at least 20 s/.test(note), `the note: ${note}`);
  assert(await page.isDisabled("#replace-go"), "Replace is off");
  await shotOf("#tool-replace", "flows-3c-replace-short-track.png");
});

test("no console errors", async () => {
  assert(consoleErrors.length === 0, consoleErrors.join("\n"));
});

await runTests(async () => {
  console.log(`screenshots in ${SCREENSHOTS}`);
  await chromium.close();
  await emu.stop();
});
