// Each user's uploads in a folder of their own: the service keeps one namespace for the account and
// overwrites a name that exists, so two users uploading the same path and name through the companion
// must keep both files; and no path or name (`..`, absolute, percent-encoded) leaves a user's folder.
// Every upload route: from a URL, a multipart stream, Base64.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { session, skip, startCompanion } from "./companion/harness.mjs";

let c;
before(async () => {
  if (!skip) c = await startCompanion();
});
after(async () => c?.close());

/** Distinct bytes of one user's file (a WAV header, then their own pattern). */
function bytesOf(user, n = 4096) {
  const out = Buffer.alloc(n);
  out.write("RIFF", 0);
  for (let i = 4; i < n; i++) out[i] = (i * (user.charCodeAt(0) + 7)) & 0xff;
  return out;
}

/** An answer's JSON (or the text, when it is not JSON). */
async function read(r) {
  const text = await r.text();
  try {
    return { status: r.status, body: JSON.parse(text) };
  } catch {
    return { status: r.status, body: text };
  }
}

const upload = {
  async base64(user, bytes, fields) {
    return read(
      await fetch(`${c.url}/upload/api/file-base64-upload`, {
        method: "POST",
        headers: { ...session(user), "content-type": "application/json" },
        body: JSON.stringify({ base64Data: bytes.toString("base64"), ...fields }),
      }),
    );
  },
  async stream(user, bytes, fields, { fileName = "take.wav", pathLast = false } = {}) {
    const form = new FormData();
    const rest = { ...fields };
    const path = rest.uploadPath;
    delete rest.uploadPath;
    if (path !== undefined && !pathLast) form.append("uploadPath", path);
    for (const [k, v] of Object.entries(rest)) form.append(k, v);
    form.append("file", new Blob([bytes], { type: "audio/wav" }), fileName);
    if (path !== undefined && pathLast) form.append("uploadPath", path);
    return read(await fetch(`${c.url}/upload/api/file-stream-upload`, { method: "POST", headers: session(user), body: form }));
  },
  async url(user, bytes, fields) {
    // The source: a file of the user's own, stored first under a random name.
    const source = await upload.base64(user, bytes, {});
    assert.equal(source.status, 200, JSON.stringify(source.body));
    return read(
      await fetch(`${c.url}/upload/api/file-url-upload`, {
        method: "POST",
        headers: { ...session(user), "content-type": "application/json" },
        body: JSON.stringify({ fileUrl: source.body.data.downloadUrl, ...fields }),
      }),
    );
  },
};

/** The bytes behind both links of an upload record. */
async function stored(record) {
  const a = Buffer.from(await (await fetch(record.downloadUrl)).arrayBuffer());
  const b = Buffer.from(await (await fetch(record.fileUrl)).arrayBuffer());
  return [a, b];
}

/** The first folder of a stored file's path (from its `fileUrl`: `.../files/<folder>/...`). */
const folderOf = (record) => new URL(record.fileUrl).pathname.split("/files/")[1].split("/")[0];

for (const route of ["url", "stream", "base64"]) {
  test(`${route}: two users with the same path and name both keep their file`, { skip }, async () => {
    const fields = { uploadPath: "shared/takes", fileName: "take.wav" };
    const alice = await upload[route]("alice", bytesOf("alice"), fields);
    assert.equal(alice.status, 200, JSON.stringify(alice.body));
    const bob = await upload[route]("bob", bytesOf("bob"), fields);
    assert.equal(bob.status, 200, JSON.stringify(bob.body));
    for (const [user, answer] of [["alice", alice], ["bob", bob]]) {
      for (const got of await stored(answer.body.data)) assert.ok(got.equals(bytesOf(user)), `${user}'s file is intact behind both links`);
    }
    assert.notEqual(folderOf(alice.body.data), folderOf(bob.body.data));
    assert.match(folderOf(alice.body.data), /^u-[A-Za-z0-9_-]{22}$/);
    assert.equal(alice.body.data.fileName, "take.wav");
    assert.match(alice.body.data.uploadPath, /^u-[A-Za-z0-9_-]{22}\/shared\/takes$/);
  });

  test(`${route}: no path or name leaves the user's folder`, { skip }, async () => {
    const mine = await upload[route]("carol", bytesOf("carol"), { uploadPath: "own", fileName: "a.wav" });
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    const folder = folderOf(mine.body.data);
    const attempts = [
      { uploadPath: "../escape", fileName: "b.wav" },
      { uploadPath: "a/../../escape", fileName: "b.wav" },
      { uploadPath: "/abs/escape", fileName: "b.wav" },
      { uploadPath: "..%2Fescape", fileName: "b.wav" },
      { uploadPath: "%2e%2e/escape", fileName: "b.wav" },
      { uploadPath: "own", fileName: "..%2Fb.wav" },
      { uploadPath: "own", fileName: "../b.wav" },
      { uploadPath: "own", fileName: "x/b.wav" },
      { fileName: "b.wav" },
    ];
    for (const fields of attempts) {
      const r = await upload[route]("carol", bytesOf("carol"), fields);
      const what = `${JSON.stringify(fields)} -> ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
      if (r.status === 200) {
        assert.equal(folderOf(r.body.data), folder, what);
        assert.ok(r.body.data.uploadPath === folder || r.body.data.uploadPath.startsWith(`${folder}/`), what);
      } else {
        assert.equal(r.status, 400, what);
        assert.equal(r.body.error, "validation", what);
        assert.ok(["uploadPath", "fileName"].includes(r.body.field), what);
      }
    }
  });
}

test("stream: the file's own name, a folder named after the file, or one spelled twice or otherwise cannot leave the folder either", { skip }, async () => {
  const mine = await upload.stream("dan", bytesOf("dan"), { uploadPath: "own" });
  assert.equal(mine.status, 200, JSON.stringify(mine.body));
  const folder = folderOf(mine.body.data);
  for (const fileName of ["../evil.wav", "..%2Fevil.wav"]) {
    const r = await upload.stream("dan", bytesOf("dan"), {}, { fileName });
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.field, "file");
  }
  const last = await upload.stream("dan", bytesOf("dan"), { uploadPath: "late" }, { pathLast: true });
  assert.equal(last.status, 200, JSON.stringify(last.body));
  assert.equal(last.body.data.uploadPath, `${folder}/late`);
  // Twice is refused, and so is the field's name in another case (a service may read it as the same).
  const boundary = "----probe";
  const part = (name, value) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const body = (...parts) =>
    Buffer.concat([
      Buffer.from(parts.join("")),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.wav"\r\nContent-Type: audio/wav\r\n\r\n`),
      bytesOf("dan"),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
  const send = async (b) =>
    read(
      await fetch(`${c.url}/upload/api/file-stream-upload`, {
        method: "POST",
        headers: { ...session("dan"), "content-type": `multipart/form-data; boundary=${boundary}` },
        body: b,
      }),
    );
  const twice = await send(body(part("uploadPath", "a"), part("uploadPath", "../../x")));
  assert.equal(twice.status, 400, JSON.stringify(twice.body));
  assert.equal(twice.body.rule, "repeated");
  const odd = await send(body(part("uploadpath", "odd")));
  assert.equal(odd.status, 400, JSON.stringify(odd.body));
  assert.equal(odd.body.field, "uploadpath");
  const none = await send(body());
  assert.equal(none.status, 200, JSON.stringify(none.body));
  assert.equal(none.body.data.uploadPath, folder);
  // In JSON, a field placing the file spelled another way is refused.
  const json = await upload.base64("dan", bytesOf("dan"), { UploadPath: "../x" });
  assert.equal(json.status, 400, JSON.stringify(json.body));
  assert.equal(json.body.field, "UploadPath");
});
