// The demo's defects a new user met, each with the test that would have caught it: every operation
// tab opened, filled and submitted (Extend's start fitting its track); forms built from the
// emulator's /openapi.json; Settings applied all or nothing; a history of tasks that survives a
// reload; a text file refused before sending; field errors that clear on edit and read in the
// page's labels; WCAG AA contrast; the callbacks list following its newest entry; a truthful
// way back to credits. Screenshots go to target/e2e-screenshots/.
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ROOT, SCREENSHOTS, assert, browser, demoSite, ensureTools, runTests, test, watchConsole } from "./_lib.mjs";

const tools = await ensureTools();
// Stages a little longer than the page's longest poll interval, so that polling sees each one.
const emu = await demoSite({ stageDelayMs: 1500 });
await mkdir(SCREENSHOTS, { recursive: true });

const chromium = await browser(tools);
const context = await chromium.newContext({ viewport: { width: 1360, height: 900 }, deviceScaleFactor: 1 });
const page = await context.newPage();
const consoleErrors = watchConsole(page);
const shot = (name) => page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });
const doc = await (await fetch(`${emu.music}/openapi.json`)).json();

async function requests(filter) {
  const { requests } = await (await fetch(`${emu.music}/_emulator/requests`)).json();
  return requests.filter(filter);
}
const sentTo = (op) => requests((r) => r.op === op);

/** The operation's request schema, as the emulator documents it. */
function schemaOf(name) {
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      if (op?.operationId === name) return op.requestBody.content["application/json"].schema;
    }
  }
  throw new Error(`no ${name} in /openapi.json`);
}

async function tab(label) {
  await page.click(`#ops label:text-is("${label}")`);
  await page.waitForFunction((l) => document.querySelector("#go").textContent === l, label);
}

async function waitComplete(timeout = 60000) {
  await page.waitForFunction(() => {
    const li = document.querySelector("#timeline li[data-stage=complete]");
    return li?.dataset.state === "done" && document.querySelectorAll(".track").length === 2;
  }, null, { timeout });
}

async function submitAndWait() {
  const before = await page.textContent("#task-id").catch(() => "");
  await page.click("#go");
  await page.waitForFunction((b) => {
    const id = document.querySelector("#task-id")?.textContent;
    return id && id !== b;
  }, before, { timeout: 15000 });
  await waitComplete();
  return page.textContent("#task-id");
}

/** WCAG contrast of an element's text against what is painted behind it (alpha layers composited). */
function contrastOf(selector) {
  return page.$$eval(selector, (nodes) => nodes.map((node) => {
    const parse = (c) => {
      const m = /rgba?\(([^)]+)\)/.exec(c) ?? /color\(srgb ([^)]+)\)/.exec(c);
      if (!m) return null;
      const parts = m[1].replace(/[,/]/g, " ").split(/\s+/).filter(Boolean).map(Number);
      const scale = c.startsWith("color(") ? 255 : 1;
      return { r: parts[0] * scale, g: parts[1] * scale, b: parts[2] * scale, a: parts[3] ?? 1 };
    };
    const layers = [];
    for (let n = node; n; n = n.parentElement) {
      const bg = parse(getComputedStyle(n).backgroundColor);
      if (bg && bg.a > 0) layers.push(bg);
      if (bg && bg.a >= 1) break;
    }
    let under = { r: 255, g: 255, b: 255 };
    for (const layer of layers.reverse()) {
      under = { r: layer.r * layer.a + under.r * (1 - layer.a), g: layer.g * layer.a + under.g * (1 - layer.a), b: layer.b * layer.a + under.b * (1 - layer.a) };
    }
    const fg = parse(getComputedStyle(node).color);
    const lum = ({ r, g, b }) => [r, g, b].map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }).reduce((acc, v, i) => acc + v * [0.2126, 0.7152, 0.0722][i], 0);
    const [hi, lo] = [lum(fg), lum(under)].sort((x, y) => y - x);
    return { text: node.textContent.slice(0, 40), ratio: (hi + 0.05) / (lo + 0.05) };
  }));
}

test("the page loads and builds every operation's form from /openapi.json", async () => {
  await page.goto(`${emu.music}/?key=${emu.key}`);
  await page.waitForSelector("body[data-ready=true]");
  await page.waitForSelector("#conn[data-state=ok]", { timeout: 15000 });
  const tabs = await page.$$eval("#ops label", (ls) => ls.map((l) => [l.htmlFor.replace(/^op-/, ""), l.textContent]));
  assert(tabs.length >= 4, `tabs: ${tabs}`);
  for (const [name, label] of tabs) {
    await tab(label);
    const schema = schemaOf(name);
    const shown = await page.$$eval("#fields [data-control-for]", (cs) => cs.map((c) => [c.name, Boolean(c.closest(".field").querySelector(".req"))]));
    const expected = Object.keys(schema.properties).filter((f) => !["uploadUrl", "callBackUrl"].includes(f));
    const names = shown.map(([n]) => n).sort();
    assert(JSON.stringify(names) === JSON.stringify(expected.sort()), `${name}: fields ${names} vs described ${expected}`);
    for (const [field, marked] of shown) {
      const type = schema.properties[field].type;
      if (type !== "boolean") assert(marked === schema.required.includes(field), `${name}.${field}: required mark ${marked}`);
    }
    for (const [field, s] of Object.entries(schema.properties)) {
      if (!s.enum || !expected.includes(field)) continue;
      const options = await page.$$eval(`#f-${field} option`, (os) => os.map((o) => o.value).filter(Boolean));
      assert(JSON.stringify(options) === JSON.stringify(s.enum), `${name}.${field}: options ${options} vs ${s.enum}`);
    }
    const blurb = await page.textContent("#op-blurb");
    const described = Object.values(doc.paths).flatMap((p) => Object.values(p)).find((o) => o?.operationId === name);
    assert(blurb === described.summary, `${name}: blurb ${blurb}`);
  }
  assert(consoleErrors.length === 0, `building the forms: ${consoleErrors.join("\n")}`);
  await tab("Add instrumental");
});

test("www/ restates no list of models (it reads them from the description)", async () => {
  const models = schemaOf("generate").properties.model.enum;
  const files = (await readdir(join(ROOT, "www"), { recursive: true })).filter((f) => /\.(js|html)$/.test(f));
  for (const file of files) {
    const text = await readFile(join(ROOT, "www", file), "utf8");
    for (const model of models.filter((m) => m.includes("_"))) assert(!text.includes(model), `${file} names the model ${model}`);
  }
});

test("a text file is refused as a source before anything is sent", async () => {
  const uploads = (await requests((r) => r.host === "upload")).length;
  await page.setInputFiles("#file", { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("la la la") });
  await page.waitForSelector("#err-uploadUrl:not(:empty)");
  const message = await page.textContent("#err-uploadUrl");
  assert(/notes\.txt/.test(message) && /not an audio file/.test(message), `message: ${message}`);
  assert((await requests((r) => r.host === "upload")).length === uploads, "nothing uploaded");
  await shot("d1-not-audio.png");
});

test("messages name the page's labels: the Audio file, not uploadUrl", async () => {
  const before = (await sentTo("addInstrumental")).length;
  await page.click("#go");
  await page.waitForFunction(() => /Audio file/.test(document.querySelector("#err-uploadUrl").textContent));
  const message = await page.textContent("#err-uploadUrl");
  assert(!/uploadUrl/.test(message), `message: ${message}`);
  assert((await sentTo("addInstrumental")).length === before, "nothing sent");
});

test("a text that starts like an MP3's tag (ID3) is still refused by its bytes", async () => {
  const uploads = (await requests((r) => r.host === "upload")).length;
  await page.setInputFiles("#file", { name: "tags.mp3", mimeType: "audio/mpeg", buffer: Buffer.from("ID3 tags of the album, typed by hand\n") });
  await page.waitForFunction(() => /tags\.mp3/.test(document.querySelector("#err-uploadUrl").textContent));
  const message = await page.textContent("#err-uploadUrl");
  assert(/not an audio file/.test(message), `message: ${message}`);
  assert((await requests((r) => r.host === "upload")).length === uploads, "nothing uploaded");
});

test("a file that is not audio, uploaded some other way, is refused by Add instrumental before any credit is taken", async () => {
  // Stored through the upload host directly (another tool, the CLI): the service takes any file.
  const res = await fetch(`${emu.upload}/api/file-base64-upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${emu.key}`, "content-type": "application/json" },
    body: JSON.stringify({ base64Data: Buffer.from("shopping list: milk, eggs\n").toString("base64"), uploadPath: "e2e", fileName: "list.txt" }),
  });
  const { data: upload } = await res.json();
  assert(upload?.downloadUrl, `uploaded: ${JSON.stringify(upload)}`);
  await page.evaluate(async (u) => (await import("/js/store.js")).set("upload", u), upload);
  await tab("Add instrumental");
  assert(/charged even if the file is not usable audio/.test(await page.textContent("#cost")), `the price says so: ${await page.textContent("#cost")}`);
  const balance = async () => (await (await fetch(`${emu.music}/api/v1/generate/credit`, { headers: { authorization: `Bearer ${emu.key}` } })).json()).data;
  const [credits, sent] = [await balance(), (await sentTo("addInstrumental")).length];
  await page.click("#go");
  await page.waitForFunction(() => /not an audio file/.test(document.querySelector("#err-uploadUrl").textContent), null, { timeout: 15000 });
  const message = await page.textContent("#err-uploadUrl");
  assert(/list\.txt/.test(message) && /Nothing was sent/.test(message) && /charges/.test(message), `message: ${message}`);
  assert((await sentTo("addInstrumental")).length === sent, "the operation was sent");
  assert((await balance()) === credits, `credits taken: ${credits} before, ${await balance()} after`);
  await page.locator("#h-source >> xpath=..").screenshot({ path: join(SCREENSHOTS, "d1b-not-audio-source.png") });
  await page.evaluate(async () => (await import("/js/store.js")).set("upload", null));
});

test("field errors clear when the field is edited", async () => {
  await page.click("#sample");
  await page.waitForSelector("#file-details:not([hidden])", { timeout: 30000 });
  assert((await page.textContent("#err-uploadUrl")) === "", "the source error cleared with a new file");
  await page.fill("[name=title]", "");
  await page.click("#go");
  await page.waitForSelector("#err-title:not(:empty)");
  const message = await page.textContent("#err-title");
  assert(/^Title /.test(message) && !/`/.test(message), `message in the label's words: ${message}`);
  await shot("d2-field-error.png");
  await page.type("[name=title]", "Night drive");
  assert((await page.textContent("#err-title")) === "", "error cleared on typing");
  assert((await page.getAttribute("[name=title]", "aria-invalid")) === null, "no longer marked invalid");
});

test("error text and slider values meet WCAG AA contrast (4.5:1) in both themes", async () => {
  await page.fill("[name=title]", "");
  await page.click("#go");
  await page.waitForSelector("#err-title:not(:empty)");
  for (const colorScheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme });
    for (const selector of [".field-error:not(:empty)", ".slider-value"]) {
      const found = await contrastOf(selector);
      assert(found.length > 0, `${selector} on the page`);
      for (const { text, ratio } of found) assert(ratio >= 4.5, `${colorScheme}: ${selector} "${text}" at ${ratio.toFixed(2)}:1`);
    }
    await shot(`d2-contrast-${colorScheme}.png`);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.fill("[name=title]", "Night drive");
});

let instrumentalId;
test("Add instrumental: filled, submitted, followed; the polled log shows each record's stage", async () => {
  instrumentalId = await submitAndWait();
  const polled = await page.textContent("#states");
  for (const words of ["text (running)", "first (running)", "complete (succeeded)"]) assert(polled.includes(words), `polled: ${polled}`);
  assert(!/undefined/.test(polled), `polled: ${polled}`);
  // Talking to the emulator directly, the client polls, and says so.
  assert((await page.textContent("#states-title")) === "Polled states" && /· polled/.test(polled), `labelled polled: ${polled}`);
});

test("Extend: opening it with no track names the Track to extend, and sends nothing", async () => {
  await tab("Extend");
  const before = (await sentTo("extend")).length;
  await page.click("#go");
  await page.waitForSelector("#err-audioId:not(:empty)");
  const message = await page.textContent("#err-audioId");
  assert(/Track to extend/.test(message) && !/audioId/.test(message), `message: ${message}`);
  assert((await sentTo("extend")).length === before, "nothing sent");
});

test("Extend: 'Extend this' picks a track, the start fits inside it, and the extension completes", async () => {
  await page.click(".track .extend");
  assert(await page.isChecked("#op-extend"), "the Extend tab is selected");
  const audioId = await page.inputValue("[name=audioId]");
  const record = await (await fetch(`${emu.music}/api/v1/generate/record-info?taskId=${instrumentalId}`, { headers: { authorization: `Bearer ${emu.key}` } })).json();
  const track = record.data.response.sunoData.find((t) => t.id === audioId);
  assert(track, `the picked track ${audioId} is one of the task's`);
  const start = Number(await page.inputValue("[name=continueAt]"));
  assert(start > 0 && start < track.duration, `start ${start} s within the track's ${track.duration} s`);
  await shot("d3-extend.png");
  await submitAndWait();
  const sent = (await sentTo("extend")).at(-1);
  assert(sent.code === 200, `extend answered ${sent.code}`);
});

test("Add vocals: filled, submitted, followed to the end", async () => {
  await tab("Add vocals");
  await submitAndWait();
});

test("Generate: filled, submitted, followed to the end", async () => {
  await tab("Generate");
  await page.fill("[name=prompt]", "A rainy Sunday, slow piano, soft brushes");
  await submitAndWait();
});

test("the callbacks list follows its newest entry", async () => {
  await page.waitForFunction(() => {
    const list = document.querySelector("#callbacks");
    return list.children.length >= 8 && list.scrollHeight > list.clientHeight;
  }, null, { timeout: 30000 });
  await page.waitForTimeout(1500);
  const { top, height, client } = await page.$eval("#callbacks", (l) => ({ top: l.scrollTop, height: l.scrollHeight, client: l.clientHeight }));
  assert(top + client >= height - 2, `scrolled to ${top + client} of ${height}`);
});

test("a refused Settings change is applied all or nothing, named by its label", async () => {
  await page.click("#settings summary");
  const good = await page.inputValue("#settings-form [name=baseUrl]");
  await page.fill("#settings-form [name=apiKey]", "someone-elses-key");
  await page.fill("#settings-form [name=baseUrl]", "not a url");
  await page.click("#settings-form button[type=submit]");
  await page.waitForSelector("#err-set-baseUrl:not(:empty)");
  const message = await page.textContent("#err-set-baseUrl");
  assert(/Music API URL/.test(message) && !/baseUrl/.test(message), `message: ${message}`);
  assert(/nothing/i.test(await page.textContent("#settings-note")), "says nothing changed");
  await shot("d4-settings-refused.png");
  await page.type("#settings-form [name=baseUrl]", "x");
  assert((await page.textContent("#err-set-baseUrl")) === "", "error cleared on edit");
  // The page still works with the settings it had: same host, same key.
  const before = (await sentTo("generate")).length;
  await submitAndWait();
  const sent = await sentTo("generate");
  assert(sent.length === before + 1 && sent.at(-1).code === 200, `generate answered ${sent.at(-1)?.code}`);
  await page.fill("#settings-form [name=baseUrl]", good);
  await page.fill("#settings-form [name=apiKey]", emu.key);
  await page.click("#settings summary");
});

test("not enough credits: the message offers a top-up that works, and promises no restart", async () => {
  await fetch(`${emu.music}/_emulator/credits`, { method: "POST", headers: { authorization: `Bearer ${emu.key}`, "content-type": "application/json" }, body: JSON.stringify({ credits: 3 }) });
  await page.click("#go");
  const alert = await page.waitForSelector(".alert.kind-insufficient_credits", { timeout: 15000 });
  const text = await alert.innerText();
  assert(!/restart/i.test(text), `message: ${text}`);
  assert(!/\b[a-z]+[A-Z]\w*\b/.test(text.replace(/Top up.*$/, "")), `no code names in: ${text}`);
  await shot("d5-credits.png");
  await page.click(".alert.kind-insufficient_credits button:has-text('Top up')");
  await page.waitForFunction(() => document.querySelector("#credits").textContent === "10,000");
});

test("tasks survive a reload: the history lists them and reopens one; any task opens by id", async () => {
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  const ids = await page.$$eval("#history li", (lis) => lis.map((li) => li.dataset.id));
  assert(ids.length >= 4 && ids.includes(instrumentalId), `history: ${ids}`);
  await page.click(`#history li[data-id="${instrumentalId}"] button`);
  await waitComplete();
  assert((await page.textContent("#task-id")) === instrumentalId, "the task reopened");
  await shot("d6-history.png");
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert((await page.$$("#history li")).length === 0, "history empty");
  await page.fill("#open-form [name=taskId]", instrumentalId);
  await page.click("#open-form button[type=submit]");
  await waitComplete();
  assert((await page.$$("#history li")).length === 1, "an opened task joins the history");
});

test("no console errors", async () => {
  // The refused credits answer is the page's own doing; anything else is a defect.
  assert(consoleErrors.length === 0, consoleErrors.join("\n"));
});

await runTests(async () => {
  await chromium.close();
  await emu.stop();
});
