// Helpers of the companion suites (tests/js/companion*.test.mjs): a companion on a free port in
// this process, in front of the emulator of `cargo xtask test`, with its log and every answer kept
// for the key scan; an event-stream reader; the emulator's request log.
import { createServer } from "node:http";
import { connect } from "node:net";
import { once } from "node:events";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const PKG = process.env.TUNESMITH_PKG ?? join(ROOT, "pkg");
export const MUSIC = process.env.TUNESMITH_TEST_MUSIC_URL;
export const UPLOAD = process.env.TUNESMITH_TEST_UPLOAD_URL;
export const KEY = process.env.TUNESMITH_TEST_API_KEY;
export const skip = !MUSIC || !UPLOAD || !KEY ? "needs the emulator (run by cargo xtask test)" : false;

export const server = skip ? {} : await import(pathToFileURL(join(PKG, "server", "index.js")).href);
export const pkg = skip ? {} : await import(pathToFileURL(join(PKG, "node.js")).href);

/** Every operation's name (the companion's default `allow` leaves some out). */
export const ALL_OPERATIONS = skip ? [] : (await import(pathToFileURL(join(PKG, "server", "routes.js")).href)).ROUTES.map((r) => r.operation);

/** Sessions of the test users: `x-session: <name>-session` is user `<name>`. */
export const session = (user) => ({ "x-session": `${user}-session` });
export const authorize = (request) => {
  const s = request.headers.get("x-session");
  if (s === "banned-session") return { status: 403, message: "this account is suspended" };
  return s?.endsWith("-session") ? s.slice(0, -"-session".length) : null;
};

/** Everything any companion answered or logged in this process, for the key scan. */
export const seen = [];

/** A port nothing listens on now: the one helper of every Node suite, in the e2e suite's library. */
export { freePort } from "../../e2e/_lib.mjs";

/**
 * A companion on a free port: `{ url, handler, logs, close() }`. It allows every operation, the
 * account's balance too (`getCredits`, a cheap probe here): the default `allow` has its own test.
 */
export async function startCompanion(options = {}) {
  const logs = [];
  const http = createServer();
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  const url = `http://127.0.0.1:${http.address().port}/ts`;
  const handler = server.createCompanion({
    apiKey: KEY,
    baseUrl: MUSIC,
    uploadUrl: UPLOAD,
    publicUrl: url,
    authorize,
    forwardHeaders: ["x-emulator-tag"],
    allow: ALL_OPERATIONS,
    log: (line) => {
      logs.push(line);
      seen.push(line);
    },
    // A publicUrl elsewhere (callbacks to a closed port): requests still reach this listener.
    ...(options.publicUrl ? { allowedHosts: [new URL(url).host] } : {}),
    ...options,
  });
  // The companion's own listener, as a Node server runs it (its answers written without a Response);
  // every answer's headers and body are kept for the key scan as they are written.
  const listener = server.toNodeListener(handler);
  http.on("request", (req, res) => {
    const { writeHead, write, end } = res;
    res.writeHead = function (status, headers) {
      seen.push(JSON.stringify(headers ?? {}));
      return writeHead.apply(this, arguments);
    };
    res.write = function (chunk) {
      seen.push(Buffer.from(chunk).toString());
      return write.apply(this, arguments);
    };
    res.end = function (chunk) {
      if (chunk !== undefined && typeof chunk !== "function") seen.push(Buffer.from(chunk).toString());
      return end.apply(this, arguments);
    };
    listener(req, res);
  });
  const sockets = new Set();
  http.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  return {
    url,
    handler,
    logs,
    http,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => http.close(r));
      await handler.close();
    },
  };
}

/**
 * The command that starts the build of the emulator under test, as words: TUNESMITH_EMULATOR_CMD
 * (split on whitespace; `cargo xtask test` names the wasm build's `node …/tunesmith.js emulator`
 * in its npx pass, as for the emulator's own HTTP-level suites), else the native binary of this
 * checkout.
 */
function emulatorCommand() {
  const words = process.env.TUNESMITH_EMULATOR_CMD?.split(/\s+/).filter(Boolean) ?? [];
  if (words.length > 0) return words;
  return [join(process.env.CARGO_TARGET_DIR ?? join(ROOT, "target"), "release", "tunesmith-emulator")];
}

/**
 * An emulator of this test's own whose stages are `stageDelayMs` apart: `{ music, upload, close() }`.
 * For the tests that must see a task's first state (`pending`): on the suite's emulator, stages
 * are 100 ms apart, and a loaded machine may read a fresh task only after its first stage. It is
 * the same build as the suite's (emulatorCommand).
 */
export async function slowEmulator(stageDelayMs = 1000) {
  const { spawn } = await import("node:child_process");
  const [bin, ...first] = emulatorCommand();
  const child = spawn(bin, [
    ...first,
    "--music-addr", "127.0.0.1:0", "--upload-addr", "127.0.0.1:0", "--rate-limit", "0",
    "--stage-delay-ms", String(stageDelayMs), "--callback-timeout-ms", "2000", "--callback-retry-delay-ms", "100",
    "--api-key", KEY,
  ], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  const ready = await new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`the emulator exited (${code}) before it was ready: ${out}`)));
    child.stdout.on("data", (c) => {
      out += c;
      const line = /^ready music=(\S+) upload=(\S+)/m.exec(out);
      if (line) resolve({ music: line[1].replace(/\/$/, ""), upload: line[2].replace(/\/$/, "") });
    });
  });
  child.removeAllListeners("exit");
  return { ...ready, close: () => { child.kill(); return once(child, "exit"); } };
}

/** A request to the companion as a page would send it; resolves with `{ status, headers, body }`. */
export async function call(companion, path, { user, method = "GET", body, headers = {} } = {}) {
  const response = await fetch(companion.url + path, {
    method,
    headers: { ...(user ? session(user) : {}), ...(body ? { "content-type": "application/json" } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: response.headers, text, body: json };
}

export const GENERATE = { customMode: false, instrumental: false, model: "V4_5", prompt: "a calm piano piece" };

export const untilFinal = (events) => events.some((e) => e.data.state === "succeeded" || e.data.state === "failed");

/** A create through the companion as `user` (generate by default); resolves with the task id. */
export async function create(companion, user, body = GENERATE, path = "/music/api/v1/generate", headers = {}) {
  const r = await call(companion, path, { user, method: "POST", body, headers });
  if (r.status !== 200 || r.body?.code !== 200) throw new Error(`create answered ${r.status}: ${r.text}`);
  return r.body.data.taskId;
}

/** Polls a record query through the companion until `done(answer)`; resolves with the last answer. */
export async function pollRecord(companion, user, path, done, tries = 200) {
  let r;
  for (let i = 0; i < tries; i++) {
    r = await call(companion, path, { user });
    if (done(r)) return r;
    await sleep(50);
  }
  throw new Error(`${path} did not finish: ${r?.text}`);
}

/** A finished song of `user`: `{ taskId, audioId }` (its first track), read through the companion. */
export async function finishedSong(companion, user) {
  const taskId = await create(companion, user);
  const r = await pollRecord(companion, user, `/music/api/v1/generate/record-info?taskId=${taskId}`, (a) => a.body?.data?.status === "SUCCESS");
  return { taskId, audioId: r.body.data.response.sunoData[0].id };
}

/** A mono 16-bit WAV of a 330 Hz tone (`seconds` long, 8 kHz). */
export { smallWav as wav } from "../../e2e/_lib.mjs";

/** A file of `user` stored through the companion's stream upload; resolves with its download URL. */
export async function uploadThrough(companion, user, bytes, name = "voice.wav") {
  const form = new FormData();
  form.append("uploadPath", "companion");
  form.append("file", new Blob([bytes], { type: "audio/wav" }), name);
  const r = await fetch(`${companion.url}/upload/api/file-stream-upload`, { method: "POST", headers: session(user), body: form });
  const answer = await r.json();
  if (r.status !== 200) throw new Error(`upload answered ${r.status}: ${JSON.stringify(answer)}`);
  return answer.data.downloadUrl;
}

/**
 * One request written byte for byte on a fresh socket (a hostile client: any Host, any target);
 * resolves with `{ status, head, body }` once the server ends the answer or closes.
 */
export function raw(url, text, { until = (all) => /\r\n\r\n/.test(all) && complete(all) } = {}) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let all = "";
    const done = () => {
      socket.destroy();
      const at = all.indexOf("\r\n\r\n");
      const head = at >= 0 ? all.slice(0, at) : all;
      let body = at >= 0 ? all.slice(at + 4) : "";
      if (/transfer-encoding: chunked/i.test(head)) body = unchunk(body);
      resolve({ status: Number(head.match(/^HTTP\/1\.1 (\d+)/)?.[1] ?? 0), head: head.toLowerCase(), body });
    };
    socket.on("data", (d) => {
      all += d;
      if (until(all)) done();
    });
    socket.on("end", done);
    socket.on("error", reject);
    socket.write(text);
  });
}

/** Writes `text` on a fresh socket, then closes it without waiting for an answer (a body cut off). */
export function cutOff(url, text) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.write(text, () => setTimeout(() => (socket.destroy(), resolve()), 100)));
    socket.on("error", resolve);
  });
}

/** A chunked body's content. @param {string} body */
function unchunk(body) {
  let out = "";
  for (let at = 0; ; ) {
    const eol = body.indexOf("\r\n", at);
    const size = parseInt(body.slice(at, eol), 16);
    if (!(size > 0)) return out;
    out += body.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

/** Whether a raw answer has all of its body (Content-Length, or the last chunk). */
function complete(all) {
  const at = all.indexOf("\r\n\r\n");
  const head = all.slice(0, at).toLowerCase();
  const length = head.match(/content-length: (\d+)/)?.[1];
  if (length !== undefined) return Buffer.byteLength(all.slice(at + 4)) >= Number(length);
  return all.endsWith("0\r\n\r\n");
}

/**
 * `store`, unchanged, with every call it answers written down (`calls`: `[method, args]`): the real
 * store, watched, for the tests that look at what the companion kept.
 */
export function observe(store) {
  const calls = [];
  const watched = {};
  for (const name of Object.keys(store)) {
    watched[name] = (...args) => {
      calls.push([name, args]);
      return store[name](...args);
    };
  }
  return { store: watched, calls };
}

/** The events of an SSE response, as they come: `{ id, event, data }`. */
export async function* sse(response) {
  let buffer = "";
  for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const item = {};
      for (const line of block.split("\n")) {
        const at = line.indexOf(":");
        if (at <= 0) continue;
        item[line.slice(0, at)] = line.slice(at + 1).trimStart();
      }
      if (item.data !== undefined) yield { id: Number(item.id), event: item.event, data: JSON.parse(item.data) };
    }
  }
}

/** Opens the event stream of `user` and collects its events until `until(events)` or the timeout. */
export async function collectEvents(companion, user, { task, lastEventId, until, timeoutMs = 15000 } = {}) {
  const abort = new AbortController();
  const query = task ? `?task=${encodeURIComponent(task)}` : "";
  const response = await fetch(`${companion.url}/events${query}`, {
    headers: { ...session(user), ...(lastEventId ? { "last-event-id": String(lastEventId) } : {}) },
    signal: abort.signal,
  });
  const events = [];
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  const done = (async () => {
    try {
      for await (const e of sse(response)) {
        events.push(e);
        if (until?.(events)) break;
      }
    } catch {}
    clearTimeout(timer);
    abort.abort();
    return events;
  })();
  return { status: response.status, events, done, stop: () => abort.abort() };
}

/** The emulator's log of requests that carried `X-Emulator-Tag: tag`. */
export async function emulatorRequests(tag) {
  const r = await fetch(`${MUSIC}/_emulator/requests?tag=${encodeURIComponent(tag)}`);
  return (await r.json()).requests;
}

/** A task's record straight from the emulator (with the key), callBackUrl included. */
export async function recordFromService(taskId) {
  const r = await fetch(`${MUSIC}/api/v1/generate/record-info?taskId=${taskId}`, { headers: { authorization: `Bearer ${KEY}` } });
  return (await r.json()).data;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A connected node-redis client (node-redis is installed in this folder, from its lockfile). */
export async function redisClient(url) {
  const { createClient } = await import("redis");
  const client = createClient({ url });
  client.on("error", (e) => console.error(`redis: ${e.message}`));
  await client.connect();
  return client;
}
