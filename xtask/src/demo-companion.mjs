// The companion of `cargo xtask demo`: the page talks to it, it holds the key. Run by xtask with
// the built package (TUNESMITH_PKG) and the emulator's hosts; prints `ready <url>`. The demo has one
// user: `authorize` trusts every page as "demo". A real app checks its session. Its state is kept
// in the demo's data folder (COMPANION_STORE_FILE, by default target/demo-data/companion.json), so
// that "Your tasks" are still the demo user's after a restart.
import { createServer } from "node:http";
import { once } from "node:events";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const { createCompanion, toNodeListener, fileStore, DEFAULT_ALLOW } = await import(
  pathToFileURL(join(env("TUNESMITH_PKG"), "server", "index.js")).href
);
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const target = process.env.CARGO_TARGET_DIR ? resolve(root, process.env.CARGO_TARGET_DIR) : join(root, "target");
const port = Number(env("COMPANION_PORT"));
const publicUrl = `http://127.0.0.1:${port}/ts`;
const handler = createCompanion({
  apiKey: env("COMPANION_API_KEY"),
  baseUrl: env("COMPANION_MUSIC_URL"),
  uploadUrl: env("COMPANION_UPLOAD_URL"),
  publicUrl,
  origins: env("COMPANION_PAGE_ORIGINS").split(","),
  authorize: () => "demo",
  // The page shows the key's remaining credits: with one user, the account's balance is theirs.
  allow: [...DEFAULT_ALLOW, "getCredits"],
  store: fileStore({ path: process.env.COMPANION_STORE_FILE ?? join(target, "demo-data", "companion.json") }),
  limits: { requestsPerWindow: 600, tasksInFlight: 20 },
  log: (line) => console.error(line),
});
const server = createServer(toNodeListener(handler));
server.listen(port, "127.0.0.1");
await once(server, "listening");
// Stopped, it writes what its store has not yet written.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => handler.close().finally(() => process.exit(0)));
console.log(`ready ${publicUrl}`);
