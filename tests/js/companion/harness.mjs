// Helpers of the companion suites (tests/js/companion*.test.mjs): a companion on a free port in
// this process, in front of the emulator of `cargo xtask test`, with its log and every answer kept
// for the key scan; an event-stream reader; the emulator's request log.
import { createServer } from "node:http";
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

/** Sessions of the test users: `x-session: <name>-session` is user `<name>`. */
export const session = (user) => ({ "x-session": `${user}-session` });
export const authorize = (request) => {
  const s = request.headers.get("x-session");
  if (s === "banned-session") return { status: 403, message: "this account is suspended" };
  return s?.endsWith("-session") ? s.slice(0, -"-session".length) : null;
};

/** Everything any companion answered or logged in this process, for the key scan. */
export const seen = [];

/** A companion on a free port: `{ url, handler, logs, close() }`. */
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
    log: (line) => {
      logs.push(line);
      seen.push(line);
    },
    ...options,
  });
  const keep = async (request) => {
    const response = await handler(request);
    const type = response.headers.get("content-type") ?? "";
    seen.push(JSON.stringify([...response.headers]));
    if (!type.startsWith("text/event-stream")) seen.push(await response.clone().text());
    return response;
  };
  http.on("request", server.toNodeListener(keep));
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
