// The service as documented after V6 (issue 38), through the package against the emulator: the new
// fields and their rules (refused before the network, naming the field and the rule), the requireds
// the documentation dropped, models the package has not heard of (passed on; the emulator answers
// as the service does for an invalid value), mashup's own table of codes, the types, and the MCP
// tools' and CLI's schemas, which carry the new fields with no hand edit.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PKG = resolve(process.env.TUNESMITH_PKG ?? join(ROOT, "pkg"));
const MUSIC = process.env.TUNESMITH_TEST_MUSIC_URL ?? "http://127.0.0.1:8787";
const UPLOAD = process.env.TUNESMITH_TEST_UPLOAD_URL ?? "http://127.0.0.1:8788";
const KEY = process.env.TUNESMITH_TEST_API_KEY ?? "ts-test-key";
const { Client, ValidationError, ApiError } = await import(pathToFileURL(join(PKG, "node.js")).href);
const run = promisify(execFile);

const CB = `${MUSIC}/inbox/v6-${process.pid}`;
const client = (headers = {}) => new Client({ apiKey: KEY, baseUrl: MUSIC, uploadUrl: UPLOAD, maxRetries: 0, headers });
const REF = "https://example.com/ref.png";
const plain = (extra) => ({ customMode: false, instrumental: true, model: "V6", callBackUrl: CB, ...extra });
const custom = (extra) => ({ customMode: true, instrumental: true, model: "V6", callBackUrl: CB, ...extra });

/** The ValidationError `call` rejects with, after checking it names `field` and `rule`. */
async function refused(call, field, rule) {
  const e = await call.then(() => assert.fail(`resolved; expected ${field} ${rule}`), (e) => e);
  assert.ok(e instanceof ValidationError, `${field}: ${e}`);
  assert.deepEqual([e.field, e.rule], [field, rule], e.message);
  assert.ok(e.message.includes(`\`${field.replace(/\[.*/, "")}`), e.message);
  return e;
}

test("generate refuses the other mode's fields by name, before the network", async () => {
  // Nothing may be sent: a fetch that fails the test.
  const offline = new Client({ apiKey: KEY, baseUrl: MUSIC, maxRetries: 0, fetch: () => assert.fail("sent") });
  const values = { negativeTags: "no drums", vocalGender: "f", duration: 30, styleWeight: 0.5, weirdnessConstraint: 0.5, audioWeight: 0.5, variety: 2 };
  for (const [field, value] of Object.entries(values)) {
    const e = await refused(offline.generate(plain({ prompt: "an idea", [field]: value })), field, "dependency");
    assert.match(e.message, /only for custom mode: do not pass it when customMode is false/);
  }
  for (const field of ["imageUrls", "videoUrls", "audioUrls"]) {
    const e = await refused(offline.generate(custom({ style: "jazz", [field]: [REF] })), field, "dependency");
    assert.match(e.message, /only for non-custom mode/);
  }
});

test("generate needs one input per mode, at most 10 references, and holds the new fields to their ranges", async () => {
  const offline = new Client({ apiKey: KEY, baseUrl: MUSIC, maxRetries: 0, fetch: () => assert.fail("sent") });
  let e = await refused(offline.generate(plain({})), "prompt", "required");
  assert.match(e.message, /`prompt`, `imageUrls`, `videoUrls`, `audioUrls`, `style` or `lyrics` is required when customMode is false/);
  e = await refused(offline.generate(custom({ title: "a title alone" })), "style", "required");
  assert.match(e.message, /`style`, `lyrics` or `negativeTags` is required when customMode is true/);
  await refused(offline.generate(plain({ imageUrls: Array(6).fill(REF) })), "imageUrls", "range");
  await refused(offline.generate(plain({ videoUrls: [REF, REF] })), "videoUrls", "range");
  await refused(offline.generate(plain({ imageUrls: ["not a url"] })), "imageUrls[0]", "url");
  e = await refused(offline.generate(plain({ imageUrls: Array(5).fill(REF), audioUrls: Array(4).fill(REF), style: "pop", lyrics: "la" })), "lyrics", "range");
  assert.match(e.message, /at most 10 in all/);
  await refused(offline.generate(custom({ style: "pop", duration: 9.5 })), "duration", "range");
  await refused(offline.generate(custom({ style: "pop", duration: 361 })), "duration", "range");
  await refused(offline.generate(custom({ style: "pop", variety: 1.5 })), "variety", "integer");
  await refused(offline.generate(custom({ style: "pop", variety: 5 })), "variety", "range");
  await refused(offline.generate(plain({ prompt: "p".repeat(3001) })), "prompt", "max_length");
  await refused(offline.generate(custom({ lyrics: "l".repeat(5001) })), "lyrics", "max_length");
  await refused(offline.generate(custom({ negativeTags: "n".repeat(1001) })), "negativeTags", "max_length");
  await refused(offline.replaceSection({ taskId: "t", audioId: "a", prompt: "p", tags: "jazz", title: "t", fullLyrics: "l", infillStartS: 10, infillEndS: 19.99 }), "infillEndS", "range");
});

test("the new fields reach the emulator, and what V6 no longer requires is not required", async () => {
  const c = client();
  // Custom: lyrics, duration, variety; no title, no prompt.
  const song = await c.generate(custom({ instrumental: false, lyrics: "la la la", style: "pop", duration: 40, variety: 3 }), { wait: true });
  const { audioUrl: source, imageUrl: image } = song.response.sunoData[0];
  assert.ok(source && image);
  // Non-custom: references alone (the emulator fetches them); a prompt of 3000 characters (was 500).
  assert.ok((await c.generate(plain({ imageUrls: [image, image], audioUrls: [source] }))).taskId);
  assert.ok((await c.generate(plain({ prompt: "p".repeat(3000) }))).taskId);
  // uploadCover without customMode or instrumental; mashup without customMode; addVocals without
  // prompt; generateSounds without callBackUrl or model (V6 by default).
  assert.ok((await c.uploadCover({ uploadUrl: source, model: "V6", callBackUrl: CB, lyrics: "new words", variety: 0, duration: 30 })).taskId);
  assert.ok((await c.mashup({ uploadUrlList: [source, source], model: "V6_MINI", callBackUrl: CB, lyrics: "mixed", duration: 60, variety: 4 })).taskId);
  assert.ok((await c.addVocals({ uploadUrl: source, callBackUrl: CB, title: "t", negativeTags: "growl", style: "soul", lyrics: "sung", variety: 2 })).taskId);
  assert.ok((await c.generateSounds({ prompt: "rain on a tin roof" })).taskId);
});

test("a model the package has not heard of is sent, and the emulator answers it as an invalid value; deprecated models still work", async () => {
  const c = client();
  const e = await c.generate(custom({ style: "pop", model: "V7_FROM_THE_FUTURE" })).then(() => assert.fail("resolved"), (e) => e);
  // An ApiError: the request went out (a ValidationError would mean the client refused it).
  assert.ok(e instanceof ApiError, String(e));
  assert.deepEqual([e.kind, e.code], ["invalid", 400]);
  assert.match(e.message, /`model` must be one of V6, V6_WILD, V6_MINI/);
  for (const model of ["V5_5", "V5", "V4_5PLUS", "V4_5ALL", "V4_5", "V4"]) {
    assert.ok((await c.generate(custom({ style: "pop", model }))).taskId, model);
  }
  // Still refused before the network: a model that is no string, or an empty one.
  await refused(c.generate(custom({ style: "pop", model: 6 })), "model", "type");
  await refused(c.generate(custom({ style: "pop", model: "" })), "model", "not_empty");
});

test("mashup answers in its own table: 402 is insufficient credits, 429 a rate limit (generate's reversed)", async () => {
  const source = "https://example.com/a.mp3";
  const request = { uploadUrlList: [source, source], model: "V6", callBackUrl: CB, style: "pop" };
  const asked = async (code, call) => call(client({ "X-Emulate-Code": String(code), "X-Emulate-Retry-After": "0" })).then(() => assert.fail("resolved"), (e) => e);
  let e = await asked(402, (c) => c.mashup(request));
  assert.deepEqual([e.constructor.name, e.kind, e.code], ["ApiError", "insufficient_credits", 402]);
  e = await asked(429, (c) => c.mashup(request));
  assert.deepEqual([e.kind, e.code], ["rate_limited", 429]);
  // The same codes on generate mean the opposite.
  e = await asked(429, (c) => c.generate(plain({ prompt: "p" })));
  assert.equal(e.kind, "insufficient_credits");
  e = await asked(430, (c) => c.generate(plain({ prompt: "p" })));
  assert.equal(e.kind, "rate_limited");
});

test("the MCP tools' and the CLI's schemas carry the new fields, generated from protocol/", async () => {
  const { OPERATIONS } = await import(pathToFileURL(join(PKG, "operations.generated.js")).href);
  const input = (name) => OPERATIONS.find((o) => o.name === name).input;
  const generate = input("generate");
  for (const field of ["lyrics", "duration", "variety", "imageUrls", "videoUrls", "audioUrls"]) {
    assert.ok(generate.properties[field], field);
  }
  assert.deepEqual([generate.properties.duration.minimum, generate.properties.duration.maximum], [10, 360]);
  assert.equal(generate.properties.imageUrls.maxItems, 5);
  assert.equal(generate.properties.videoUrls.maxItems, 1);
  assert.ok(!generate.required.includes("prompt") && !generate.required.includes("title"));
  // A model is open: its known values are examples, not an enum an agent would be held to.
  assert.equal(generate.properties.model.enum, undefined);
  assert.ok(generate.properties.model.examples.includes("V6"));
  for (const [op, fields] of [["uploadCover", ["lyrics", "variety", "duration"]], ["mashup", ["lyrics", "variety", "duration", "personaId", "personaModel"]], ["replaceSection", ["lyrics", "vocalGender", "styleWeight", "variety", "personaId"]], ["addVocals", ["lyrics", "variety"]], ["addInstrumental", ["lyrics", "variety"]]]) {
    for (const field of fields) assert.ok(input(op).properties[field], `${op}.${field}`);
  }
  assert.ok(!input("uploadCover").required.includes("customMode"));
  assert.ok(!input("mashup").required.includes("customMode"));
  assert.ok(!input("addVocals").required.includes("prompt"));
  assert.ok(!input("generateSounds").required.includes("callBackUrl"));
  // The CLI lists them too.
  const { stdout } = await run(process.execPath, [join(PKG, "cli", "tunesmith.js"), "schema", "generate"], { env: { ...process.env, TUNESMITH_API_KEY: "" } });
  for (const field of ["lyrics", "duration", "variety", "imageUrls", "videoUrls", "audioUrls"]) {
    assert.ok(stdout.includes(field), `${field} in: ${stdout.slice(0, 400)}`);
  }
});

let scratch;
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), "v6-types-"));
});
after(async () => scratch && rm(scratch, { recursive: true, force: true }));

test("the types admit any model name, list the known ones and mark the deprecated ones and sourceAudioUrl", async () => {
  const types = await readFile(join(PKG, "tunesmith.d.ts"), "utf8");
  assert.match(types, /export type Model = KnownModel \| \(string & \{\}\);/);
  assert.match(types, /@deprecated[^\n]*\n \*\/\nexport type DeprecatedModel = "V5_5" \| "V5" \| "V4_5PLUS" \| "V4_5ALL" \| "V4_5" \| "V4";/);
  assert.match(types, /@deprecated[^\n]*\n\s*\*\/\n\s*sourceAudioUrl: string;/);
  assert.ok(!types.includes('"V3_5"'), "V3_5 is gone");
  // tsc: a newer model's name type-checks as a Model, not as a KnownModel.
  const MODULES = join(ROOT, "node_modules");
  const dir = join(scratch, "models");
  await mkdir(join(dir, "node_modules"), { recursive: true });
  await symlink(PKG, join(dir, "node_modules", "tunesmith"), "dir");
  await symlink(join(MODULES, "@types"), join(dir, "node_modules", "@types"), "dir");
  await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext" }, files: ["check.ts"] }));
  await writeFile(join(dir, "check.ts"), [
    'import type { GenerateRequest, KnownModel, Model } from "tunesmith";',
    'export const newer: GenerateRequest = { customMode: true, instrumental: true, model: "V7_FROM_THE_FUTURE", callBackUrl: "https://e.com/cb", style: "pop", duration: 40, variety: 2 };',
    'export const deprecated: Model = "V4";',
    '// @ts-expect-error: a KnownModel is one of the listed names',
    'export const unknown: KnownModel = "V7_FROM_THE_FUTURE";',
    '// @ts-expect-error: variety is 0 to 4',
    'export const variety: GenerateRequest["variety"] = 5;',
    "",
  ].join("\n"));
  const out = await run(process.execPath, [join(MODULES, "typescript", "bin", "tsc"), "-p", dir], { cwd: dir }).then(() => "", (e) => e.stdout || String(e));
  assert.equal(out, "");
});
