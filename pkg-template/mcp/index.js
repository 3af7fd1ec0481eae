// `tunesmith/mcp`: the service's operations as Model Context Protocol tools, over stdio
// (`npx tunesmith mcp`, or `serveMcpStdio`) or mounted in the companion
// (`createCompanion({ mcp: true })`, Streamable HTTP at `{publicUrl}/mcp`, through `./http.js`).
// This entry is Node's: with `localFiles: true` it offers `uploadFile` of a local path, which is
// why the companion's route never imports it (a Worker has no `node:fs`).
import { readLocalFile } from "./local-file.js";
import { createMcpServer as createServer, DEFAULT_GRACE_MS, DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS } from "./server.js";

export { DEFAULT_GRACE_MS, DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS };

/**
 * An `McpServer` with one tool per operation. Options: `client` (a `Client`, or `(ctx) => Client`
 * for a client per call), `allow` (operation names; default all), `localFiles` (offer `uploadFile`
 * with a local `path`: stdio only), `callbackUrl` (set on creates that name none),
 * `defaultWaitSeconds` (50), `maxWaitSeconds` (600), `graceMs` (15000: what a call may take
 * beyond its wait), `maxInlineBytes` (16 MiB of inlined audio and images per call).
 */
export function createMcpServer(options) {
  if (options === null || typeof options !== "object") return createServer(options); // its TypeError
  return createServer({ ...options, readLocalFile: options.localFiles === true ? readLocalFile : null });
}

/** Serves the tools over stdio until stdin closes; resolves with the SDK's handle (`close()`). */
export async function serveMcpStdio(options) {
  const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
  return serveStdio(() => createMcpServer({ localFiles: true, ...options }));
}
