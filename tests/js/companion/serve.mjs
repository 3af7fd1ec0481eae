// A companion in a process of its own, for the tests and benchmarks that measure it (memory) or kill
// it (restart, kill -9). Configured by environment; prints `ready <url>` when listening.
//   COMPANION_PORT (0: free), COMPANION_PUBLIC_URL (default http://127.0.0.1:<port>/ts),
//   COMPANION_STORE=redis with COMPANION_REDIS_URL (and COMPANION_REDIS_PREFIX), or =file with
//   COMPANION_STORE_FILE, COMPANION_LIMITS (JSON), COMPANION_ORIGINS (JSON), COMPANION_OPTIONS (JSON:
//   any other option), COMPANION_WWW (a folder served at /: the demo page). Every operation is
//   allowed, getCredits too (the probes use it).
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { once } from "node:events";
import { ALL_OPERATIONS, authorize, KEY, MUSIC, UPLOAD, redisClient, server } from "./harness.mjs";

const port = Number(process.env.COMPANION_PORT ?? 0);
const http = createServer();
http.listen(port, "127.0.0.1");
await once(http, "listening");
const base = `http://127.0.0.1:${http.address().port}`;
const publicUrl = process.env.COMPANION_PUBLIC_URL ?? `${base}/ts`;

let store;
if (process.env.COMPANION_STORE === "redis") {
  store = server.redisStore({ client: await redisClient(process.env.COMPANION_REDIS_URL), prefix: process.env.COMPANION_REDIS_PREFIX });
} else if (process.env.COMPANION_STORE === "file") {
  store = server.fileStore({ path: process.env.COMPANION_STORE_FILE });
}

const handler = server.createCompanion({
  apiKey: KEY,
  baseUrl: MUSIC,
  uploadUrl: UPLOAD,
  publicUrl,
  authorize,
  store,
  forwardHeaders: ["x-emulator-tag"],
  allow: ALL_OPERATIONS,
  limits: JSON.parse(process.env.COMPANION_LIMITS ?? "{}"),
  origins: JSON.parse(process.env.COMPANION_ORIGINS ?? "[]"),
  // A publicUrl elsewhere (callbacks to a closed port): requests still reach this listener.
  allowedHosts: [new URL(base).host],
  log: (line) => console.error(line),
  ...JSON.parse(process.env.COMPANION_OPTIONS ?? "{}"),
});
const companion = server.toNodeListener(handler);
const www = process.env.COMPANION_WWW;
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json" };
http.on("request", async (req, res) => {
  if (!www || req.url.startsWith(new URL(publicUrl).pathname + "/")) return companion(req, res);
  const path = normalize(decodeURIComponent(new URL(req.url, base).pathname)).replace(/^(\.\.[/\\])+/, "");
  try {
    const body = await readFile(join(www, path.endsWith("/") ? path + "index.html" : path));
    res.writeHead(200, { "content-type": TYPES[extname(path) || ".html"] ?? "application/octet-stream" }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
// A polite stop (SIGTERM) closes the companion, which writes what a file store has not yet.
process.on("SIGTERM", () => handler.close().finally(() => process.exit(0)));
console.log(`ready ${publicUrl}`);
