// The companion of `cargo xtask demo`: the page talks to it, it holds the key. Run by xtask with the
// built package (TUNESMITH_PKG) and the emulator's hosts; prints `ready <url>`.
// The demo has one user: `authorize` trusts every page as "demo". A real app checks its session.
// Beside the companion (`/ts/*`), the demo's own routes (`/demo/*`) do what the page cannot without
// the key: top up the emulator's credits (its admin route wants the key), and list the callbacks the
// companion received, with what it did with each (pushed to the page, a duplicate, refused); their
// rules are www-site/demo-routes.js, which the static site's service worker serves too.
// The companion's state is kept in the demo's data folder (COMPANION_STORE_FILE, by default
// target/demo-data/companion.json), so that "Your tasks" are still the demo user's after a restart.
import { createServer } from "node:http";
import { once } from "node:events";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { receiveCallback, receivedSince, topUpCredits } from "../../www-site/demo-routes.js";

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const server = (file) => import(pathToFileURL(join(env("TUNESMITH_PKG"), "server", file)).href);
const { createCompanion, fileStore, toNodeListener } = await server("index.js");
const { ROUTES } = await server("routes.js");
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const target = process.env.CARGO_TARGET_DIR ? resolve(root, process.env.CARGO_TARGET_DIR) : join(root, "target");
const port = Number(env("COMPANION_PORT"));
const apiKey = env("COMPANION_API_KEY");
const music = env("COMPANION_MUSIC_URL").replace(/\/+$/, "");
const origins = env("COMPANION_PAGE_ORIGINS").split(",");
const PREFIX = "/ts";
const publicUrl = `http://127.0.0.1:${port}${PREFIX}`;
const companion = createCompanion({
  apiKey,
  baseUrl: music,
  uploadUrl: env("COMPANION_UPLOAD_URL"),
  publicUrl,
  origins,
  authorize: () => "demo",
  // Every operation, the account's credits included: the demo's one user is the developer.
  allow: [...new Set(ROUTES.map((route) => route.operation))],
  store: fileStore({ path: process.env.COMPANION_STORE_FILE ?? join(target, "demo-data", "companion.json") }),
  limits: { requestsPerWindow: 600, tasksInFlight: 20 },
  // Settings' "Simulate a service answer": the emulator answers one request with that code.
  forwardHeaders: ["x-emulate-code"],
  log: (line) => console.error(line),
});

/** The callbacks the companion received, oldest first (the newest 500). */
const received = [];

/** The page's origin, when it is one of the demo's (the page is on the emulator's host). */
const pageOrigin = (request) => {
  const origin = request.headers.get("origin");
  return origin !== null && origins.includes(origin) ? origin : null;
};

function answer(request, status, body) {
  const headers = { "content-type": "application/json", "cache-control": "no-store" };
  const origin = pageOrigin(request);
  if (origin) Object.assign(headers, { "access-control-allow-origin": origin, "access-control-allow-credentials": "true", vary: "Origin" });
  return new Response(body === null ? null : JSON.stringify(body), { status, headers });
}

async function topUp(request) {
  const { credits, refused } = await topUpCredits(request);
  if (refused) return answer(request, 400, refused);
  const res = await fetch(`${music}/_emulator/credits`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ credits }),
  }).catch(() => null);
  if (!res?.ok) return answer(request, 502, { code: 502, msg: `the emulator refused the top-up (${res ? `HTTP ${res.status}` : "unreachable"})` });
  return answer(request, 200, { code: 200, msg: "topped up", credits });
}

/** `/demo/*`: the demo's own routes, for its page only. */
async function demoRoute(request, path) {
  if (request.headers.get("origin") !== null && !pageOrigin(request)) return answer(request, 403, { code: 403, msg: "not the demo page's origin" });
  if (request.method === "OPTIONS") {
    const response = answer(request, 204, null);
    response.headers.set("access-control-allow-methods", "GET, POST, OPTIONS");
    response.headers.set("access-control-allow-headers", "content-type");
    return response;
  }
  if (path === "/demo/credits" && request.method === "POST") return topUp(request);
  if (path === "/demo/callbacks" && request.method === "GET") {
    return answer(request, 200, receivedSince(request, received));
  }
  return answer(request, 404, { code: 404, msg: "not a route of the demo" });
}

async function handle(request) {
  const { pathname } = new URL(request.url);
  if (pathname.startsWith("/demo/")) return demoRoute(request, pathname);
  if (request.method === "POST" && pathname.startsWith(`${PREFIX}/callbacks/`)) return receiveCallback(companion, request, received);
  return companion(request);
}

const listener = createServer(toNodeListener(handle, { origin: publicUrl }));
listener.listen(port, "127.0.0.1");
await once(listener, "listening");
// Stopped, it writes what its store has not yet written.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => companion.close().finally(() => process.exit(0)));
console.log(`ready ${publicUrl}`);
