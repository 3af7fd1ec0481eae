// The companion of `cargo xtask demo` (issue 14): the page talks to it, it holds the key. Run by
// xtask with the built package (TUNESMITH_PKG) and the emulator's hosts; prints `ready <url>`.
// The demo has one user: `authorize` trusts every page as "demo". A real app checks its session.
import { createServer } from "node:http";
import { once } from "node:events";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const { createCompanion, toNodeListener } = await import(pathToFileURL(join(env("TUNESMITH_PKG"), "server", "index.js")).href);
const port = Number(env("COMPANION_PORT"));
const publicUrl = `http://127.0.0.1:${port}/ts`;
const handler = createCompanion({
  apiKey: env("COMPANION_API_KEY"),
  baseUrl: env("COMPANION_MUSIC_URL"),
  uploadUrl: env("COMPANION_UPLOAD_URL"),
  publicUrl,
  origins: env("COMPANION_PAGE_ORIGINS").split(","),
  authorize: () => "demo",
  limits: { requestsPerWindow: 600, tasksInFlight: 20 },
  log: (line) => console.error(line),
});
const server = createServer(toNodeListener(handler));
server.listen(port, "127.0.0.1");
await once(server, "listening");
console.log(`ready ${publicUrl}`);
