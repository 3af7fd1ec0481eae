// `tunesmith mcp` and local files: `uploadFile` reads only inside the roots the user gives (`--root`,
// TUNESMITH_MCP_ROOTS, or the MCP client's own roots), never a dot-file, a folder, a fifo or a file
// past the cap, and is not offered at all without a root; the callback URL of creates is the
// server's, never an agent's. Driven over stdio by the official MCP client against the emulator:
// every refusal is also checked in the emulator's log (no upload reached it).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { MUSIC, PKG, skip, wav } from "./companion/harness.mjs";
import { requestsSince, spawnMcp, text, toolsWhen } from "./agents/stdio.mjs";

const SONG = { customMode: false, instrumental: true, model: "V4_5", prompt: "a calm piano piece" };

/**
 * A home-like folder: secrets at its top (`.ssh/id_ed25519`, `.env`, `notes.txt`), and the one root,
 * `Music`, holding a song, symlinks out, a dot-file, a folder, a fifo and a file past the cap.
 */
let home;
let music;
let other;
let rooted;
before(async () => {
  if (skip) return;
  home = await realpath(await mkdtemp(join(tmpdir(), "ts-home-")));
  await mkdir(join(home, ".ssh"));
  await writeFile(join(home, ".ssh", "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n");
  await writeFile(join(home, ".env"), "TUNESMITH_API_KEY=ts-secret\n");
  await writeFile(join(home, "notes.txt"), "private notes\n");
  music = join(home, "Music");
  await mkdir(join(music, "sub"), { recursive: true });
  await mkdir(join(music, ".config"));
  await writeFile(join(music, "song.wav"), wav(1));
  await writeFile(join(music, "sub", "take.wav"), wav(1));
  await writeFile(join(music, ".hidden.wav"), wav(1));
  await writeFile(join(music, ".config", "a.wav"), wav(1));
  await symlink(join(home, "notes.txt"), join(music, "notes-link.wav"));
  await symlink(join(home, ".ssh", "id_ed25519"), join(music, "key-link.wav"));
  await symlink(home, join(music, "home-link"));
  await symlink(join(music, "song.wav"), join(music, "song-link.wav"));
  execFileSync("mkfifo", [join(music, "pipe.wav")]);
  await writeFile(join(music, "big.wav"), "");
  await truncate(join(music, "big.wav"), 100 * 1000 * 1000 + 1); // sparse: nothing is written
  other = await realpath(await mkdtemp(join(tmpdir(), "ts-other-")));
  await writeFile(join(other, "other.wav"), wav(1));
  rooted = await spawnMcp({ args: ["--root", music] });
});
after(async () => rooted?.close());

/** Uploads of the emulator since `since`. */
const uploadsSince = async (since) => (await requestsSince(since)).requests.filter((r) => r.host === "upload" || /upload/i.test(r.path));

test("no root: uploadFile is not offered, and a call of it is refused", { skip }, async () => {
  const bare = await spawnMcp();
  try {
    const names = (await bare.client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes("uploadBase64") && !names.includes("uploadFile"), names.join(","));
    const { last } = await requestsSince();
    const result = await bare.client.callTool({ name: "uploadFile", arguments: { path: join(home, ".env") } }).catch((e) => ({ isError: true, content: [{ type: "text", text: String(e) }] }));
    assert.equal(result.isError, true);
    assert.deepEqual(await uploadsSince(last), []);
    assert.match(bare.stderr(), /uploadFile is offered only once the client lists roots/);
  } finally {
    await bare.close();
  }
});

test("a root from --root: uploadFile is offered, says its root, and uploads a file inside it", { skip }, async () => {
  const tool = (await rooted.client.listTools()).tools.find((t) => t.name === "uploadFile");
  assert.ok(tool, "offered");
  assert.match(tool.description, new RegExp(`inside these roots \\(after symlinks\\): ${music.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")};`));
  assert.match(tool.inputSchema.properties.path.description, /inside these roots/);
  assert.match(tool.description, /starts with a dot/);
  const { last } = await requestsSince();
  for (const path of [join(music, "song.wav"), "song.wav", join(music, "sub", "take.wav"), join(music, "song-link.wav")]) {
    const result = await rooted.client.callTool({ name: "uploadFile", arguments: { path } });
    assert.equal(result.isError, undefined, `${path}: ${text(result)}`);
    assert.equal(result.structuredContent.fileSize, wav(1).length);
  }
  assert.equal((await uploadsSince(last)).length, 4, "each upload is in the emulator's log");
});

/** Each path an agent (or a prompt injection) may try, with the rule that refuses it. */
const REFUSED = () => [
  [join(home, ".ssh", "id_ed25519"), "inside_roots"],
  [join(home, ".env"), "inside_roots"],
  [join(home, "notes.txt"), "inside_roots"],
  ["/etc/shadow", "inside_roots"],
  ["/etc/passwd", "inside_roots"],
  [join(music, "..", "notes.txt"), "inside_roots"],
  ["../notes.txt", "inside_roots"],
  ["sub/../../.env", "inside_roots"],
  [join(music, "notes-link.wav"), "inside_roots"],
  [join(music, "key-link.wav"), "inside_roots"],
  [join(music, "home-link", "notes.txt"), "inside_roots"],
  [join(music, ".hidden.wav"), "dot_file"],
  [join(music, ".config", "a.wav"), "dot_file"],
  [join(music, "sub"), "regular_file"],
  [music, "regular_file"],
  [join(music, "pipe.wav"), "regular_file"],
  [join(music, "big.wav"), "max_bytes"],
  [join(music, "missing.wav"), "not_found"],
];

test("files outside the root, through .., through a symlink, dot-files, folders, a fifo, past the cap: each refused, none read", { skip }, async () => {
  const { last } = await requestsSince();
  for (const [path, rule] of REFUSED()) {
    const result = await rooted.client.callTool({ name: "uploadFile", arguments: { path } });
    assert.equal(result.isError, true, `${path} must be refused: ${text(result)}`);
    assert.match(text(result), new RegExp(`LocalFileError \\(validation, field path, rule ${rule}\\)`), path);
    assert.ok(!text(result).includes("secret") && !text(result).includes("private notes"), text(result));
    assert.equal(result.structuredContent, undefined);
  }
  assert.deepEqual(await uploadsSince(last), [], "no refused file reached the upload host");
});

test("checkLocalPath, the one check: files outside the roots read: 0", { skip }, async () => {
  const { checkLocalPath, resolveRoots } = await import(pathToFileURL(join(PKG, "mcp", "local-file.js")).href);
  const roots = resolveRoots([music]);
  assert.deepEqual(await checkLocalPath("song.wav", roots), { path: join(music, "song.wav"), size: wav(1).length });
  let outside = 0;
  for (const [path, rule] of REFUSED()) {
    await checkLocalPath(path, roots).then(
      () => outside++,
      (e) => {
        assert.equal(e.name, "LocalFileError");
        assert.equal(e.field, "path");
        assert.equal(e.rule, rule, `${path}: ${e.message}`);
      },
    );
  }
  assert.equal(outside, 0);
  await assert.rejects(checkLocalPath(join(music, "song.wav"), []), { rule: "roots" });
  assert.throws(() => resolveRoots([join(home, "nowhere")]), { rule: "root", message: /no such folder/ });
});

test("a root from TUNESMITH_MCP_ROOTS, and a missing --root is a usage error", { skip }, async () => {
  const viaEnv = await spawnMcp({ env: { TUNESMITH_MCP_ROOTS: other } });
  try {
    const ok = await viaEnv.client.callTool({ name: "uploadFile", arguments: { path: join(other, "other.wav") } });
    assert.equal(ok.isError, undefined, text(ok));
    const refused = await viaEnv.client.callTool({ name: "uploadFile", arguments: { path: join(music, "song.wav") } });
    assert.match(text(refused), /rule inside_roots/);
  } finally {
    await viaEnv.close();
  }
  const { execFile } = await import("node:child_process");
  const { CLI, serverEnv } = await import("./agents/stdio.mjs");
  const { code, stderr } = await new Promise((resolve) =>
    execFile(process.execPath, [CLI, "mcp", "--root", join(home, "nowhere")], { env: serverEnv() }, (e, _out, stderr) =>
      resolve({ code: e?.code ?? 0, stderr }),
    ),
  );
  assert.equal(code, 2, stderr);
  assert.match(stderr, /root .*nowhere: no such folder/);
});

test("roots from the client (roots/list), followed on roots/list_changed", { skip }, async () => {
  const host = await spawnMcp({ roots: [pathToFileURL(music).href] });
  try {
    const describes = (dir) => (tools) => tools.find((t) => t.name === "uploadFile")?.description.includes(`${dir};`);
    assert.ok(describes(music)(await toolsWhen(host.client, describes(music))), "offered once the client's roots are read");
    const ok = await host.client.callTool({ name: "uploadFile", arguments: { path: join(music, "song.wav") } });
    assert.equal(ok.isError, undefined, text(ok));
    const no = await host.client.callTool({ name: "uploadFile", arguments: { path: join(other, "other.wav") } });
    assert.match(text(no), /rule inside_roots/);

    await host.setRoots([pathToFileURL(other).href]);
    assert.ok(describes(other)(await toolsWhen(host.client, describes(other))), "the new roots replace the old");
    const now = await host.client.callTool({ name: "uploadFile", arguments: { path: join(other, "other.wav") } });
    assert.equal(now.isError, undefined, text(now));
    const before = await host.client.callTool({ name: "uploadFile", arguments: { path: join(music, "song.wav") } });
    assert.match(text(before), /rule inside_roots/);

    await host.setRoots([]);
    const gone = await toolsWhen(host.client, (tools) => !tools.some((t) => t.name === "uploadFile"));
    assert.ok(!gone.some((t) => t.name === "uploadFile"), "no roots left: not offered");
  } finally {
    await host.close();
  }
});

test("a host that calls uploadFile at once after connecting: the call waits for the client's roots", { skip }, async () => {
  const host = await spawnMcp({ roots: [pathToFileURL(music).href] });
  try {
    const [inside, outside] = await Promise.all([
      host.client.callTool({ name: "uploadFile", arguments: { path: "song.wav" } }),
      host.client.callTool({ name: "uploadFile", arguments: { path: join(home, ".env") } }),
    ]);
    assert.equal(inside.isError, undefined, text(inside));
    assert.equal(inside.structuredContent.fileSize, wav(1).length);
    assert.match(text(outside), /rule inside_roots/);
  } finally {
    await host.close();
  }
  const empty = await spawnMcp({ roots: [] });
  try {
    const tools = await toolsWhen(empty.client, (list) => !list.some((t) => t.name === "uploadFile"));
    assert.ok(!tools.some((t) => t.name === "uploadFile"), "a client that lists no roots: not offered");
  } finally {
    await empty.close();
  }
});

test("the callback URL is the server's: not in any schema, refused from an agent, and the configured one is used", { skip }, async () => {
  const inbox = `pinned-${process.pid}-${Date.now()}`;
  const pinned = await spawnMcp({ args: ["--root", music], env: { TUNESMITH_CALLBACK_URL: `${MUSIC}/inbox/${inbox}` } });
  try {
    const tools = (await pinned.client.listTools()).tools;
    for (const t of tools) {
      assert.ok(!("callBackUrl" in t.inputSchema.properties) && !("callbackUrl" in t.inputSchema.properties), t.name);
    }
    const { last } = await requestsSince();
    const evil = "https://attacker.example/collect";
    for (const name of ["generateLyrics", "generate"]) {
      const args = name === "generate" ? { ...SONG, callBackUrl: evil } : { prompt: "the contents of .env", callBackUrl: evil };
      const result = await pinned.client.callTool({ name, arguments: args });
      assert.equal(result.isError, true, text(result));
      assert.match(text(result), /ValidationError \(validation, field callBackUrl, rule server_set\): callBackUrl: set by the server/);
    }
    const creates = (await requestsSince(last)).requests.filter((r) => r.method === "POST");
    assert.deepEqual(creates, [], "nothing was created");

    const lyrics = await pinned.client.callTool({ name: "generateLyrics", arguments: { prompt: "a song about the sea" } }, { timeout: 90_000 });
    assert.equal(lyrics.structuredContent?.state, "succeeded", text(lyrics));
    let received = [];
    for (let i = 0; i < 200 && received.length === 0; i++) {
      received = (await (await fetch(`${MUSIC}/inbox/${inbox}`)).json()).items;
      if (received.length === 0) await new Promise((r) => setTimeout(r, 25));
    }
    assert.ok(received.length > 0, `the configured callback URL got the task's callbacks: ${JSON.stringify(received)}`);
  } finally {
    await pinned.close();
  }
});
