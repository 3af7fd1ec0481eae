// Issue 38, item 5: where a record holds files and texts (media.js, which the MCP server and the CLI
// share) and which request fields name a track, persona or voice (the companion's references.js)
// come from protocol/ through the generated tables (`MEDIA` in operations.generated.js,
// `REFERENCE_FIELDS` in server/routes.js): none of these modules names a family, an operation or
// a field of its own, and an entry added to the table is followed with no edit of theirs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PKG, skip } from "./companion/harness.mjs";

const TEMPLATE = new URL("../../pkg-template/", import.meta.url);
const load = (file) => import(pathToFileURL(join(PKG, file)).href);
const media = skip ? {} : await load("media.js");
const { MEDIA, OPERATIONS } = skip ? {} : await load("operations.generated.js");
const routes = skip ? {} : await load("server/routes.js");

/** Code lines of a module of the template, comments left out. */
async function code(file) {
  const source = await readFile(new URL(file, TEMPLATE), "utf8");
  return source.split("\n").filter((l) => !/^\s*(\/\/|\*|\/\*\*)/.test(l));
}

test("media.js, the MCP tools and references.js name no family, operation or reference field themselves", { skip }, async () => {
  const names = new Set([
    ...Object.keys(routes.WAITERS),
    ...OPERATIONS.map((op) => op.name),
    ...routes.REFERENCE_FIELDS,
    ...routes.NAMED_REFERENCE_FIELDS,
    // Fields of the records that hold files: where they are is the table's to say.
    ...Object.values(MEDIA).flatMap((m) => m.files.flat().flatMap((f) => [...f.at, ...f.url])),
  ]);
  for (const file of ["media.js", "mcp/tools.js", "server/references.js"]) {
    const named = (await code(file)).filter((l) => [...l.matchAll(/["'`]([A-Za-z_]+)["'`]/g)].some((m) => names.has(m[1])));
    assert.deepEqual(named, [], `${file} names a family, an operation or a field itself`);
  }
});

test("every task family has its entry in MEDIA or holds nothing to link, and audio families are offered inline", { skip }, () => {
  const families = Object.keys(routes.WAITERS);
  for (const key of Object.keys(MEDIA)) {
    assert.ok(families.includes(key) || OPERATIONS.some((op) => op.name === key && op.family === null), key);
  }
  assert.deepEqual([...media.FAMILIES_WITH_AUDIO].sort(), ["music", "recovery", "vocal_separation", "wav"]);
});

test("an entry added to MEDIA is followed by filesOf and textsOf with no code of their own", { skip }, () => {
  // What `cargo xtask codegen` would write for a family declared in protocol/src/media.rs.
  MEDIA.scratch = {
    files: [[{ at: ["response", "clips"], each: true, urlFieldsExcept: null, kind: "video", url: ["clipUrl"], id: { field: "clipId" }, title: { words: "clip" }, duration: "seconds", tags: null, size: null, mimeType: null }]],
    texts: [{ at: ["notes"], text: "body", title: "heading" }],
  };
  try {
    const record = {
      taskId: "t1",
      response: { clips: [{ clipId: "c1", clipUrl: "https://example.com/c1.mp4", seconds: 4 }, { clipId: "c2", clipUrl: "" }] },
      notes: [{ heading: "Verse", body: "la la" }, { body: "" }],
    };
    assert.deepEqual(media.filesOf("scratch", record), [
      { url: "https://example.com/c1.mp4", kind: "video", id: "c1", title: "clip 1", mimeType: "video/mp4", duration: 4 },
    ]);
    assert.deepEqual(media.textsOf("scratch", record), ["Verse\n\nla la"]);
    assert.ok(media.FAMILIES_WITH_AUDIO instanceof Set);
  } finally {
    delete MEDIA.scratch;
  }
  // A name the table does not hold has nothing, whatever the record says (`toString` included).
  assert.deepEqual(media.filesOf("toString", { audioUrl: "https://example.com/a.mp3" }), []);
  assert.deepEqual(media.textsOf("nothing", { lyrics: [{ text: "x" }] }), []);
});

test("the companion checks the reference fields protocol declares, and reads ids where records name them", { skip }, async () => {
  const references = await load("server/references.js");
  assert.deepEqual([...references.REFERENCE_FIELDS], routes.REFERENCE_FIELDS);
  const record = JSON.stringify(Object.fromEntries(routes.NAMED_REFERENCE_FIELDS.map((f, i) => [f, `id-${i}`])));
  assert.deepEqual(references.namedIds(record), routes.NAMED_REFERENCE_FIELDS.map((_, i) => `id-${i}`));
  assert.deepEqual(references.namedIds(`{"audioUrl":"https://x","taskId":"t"}`), []);
});
