// `tunesmith/mcp`: the service's operations as Model Context Protocol tools, over stdio
// (`npx tunesmith mcp`, or `serveMcpStdio`) or mounted in the companion
// (`createCompanion({ mcp: true })`, Streamable HTTP at `{publicUrl}/mcp`, through `./http.js`).
// This entry is Node's: with `localFiles: true` it offers `uploadFile` of a local path inside the
// roots the user gave (`roots`, or the MCP client's own roots), which is why the companion's route
// never imports it (a Worker has no `node:fs`).
import { MAX_LOCAL_FILE_BYTES, readRootedFile, resolveRoots } from "./local-file.js";
import { createMcpServer as createServer, DEFAULT_GRACE_MS, DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS } from "./server.js";

export { DEFAULT_GRACE_MS, DEFAULT_WAIT_SECONDS, MAX_LOCAL_FILE_BYTES, MAX_WAIT_SECONDS };

/** Where a create's callbacks go when the stdio server is given no callback URL: nowhere (it waits). */
export const NOWHERE = "https://callback.invalid/tunesmith-mcp";

/**
 * The local files of a server (`low()`: its SDK `Server`): `roots` as given (folders, resolved
 * now; a missing one throws), joined by the client's roots as it lists them, unless `clientRoots` is false.
 */
function localFiles(low, options) {
  const configured = resolveRoots(options.roots ?? []);
  const local = {
    roots: configured,
    maxBytes: options.maxFileBytes ?? MAX_LOCAL_FILE_BYTES,
    /** The client's roots being read (a promise), or null: a call waits for them. */
    pending: null,
    read: async (path) => {
      await local.pending;
      return readRootedFile(path, local.roots, { maxBytes: local.maxBytes });
    },
    onRootsChanged: () => {},
  };
  if (options.clientRoots === false) return local;
  // A 2025-era client that declares `roots` is asked for them once initialized, and again on each
  // `notifications/roots/list_changed`; a root that is not an existing folder is left out. While
  // they are read, `uploadFile` is offered and its calls wait for them (a host calls it at once).
  const ask = () => {
    if (!low().getClientCapabilities()?.roots) return;
    const reading = (async () => {
      let listed = [];
      try {
        listed = (await low().listRoots()).roots.map((r) => r.uri);
      } catch (e) {
        options.onRootsError?.(e);
      }
      local.roots = [...new Set([...configured, ...resolveRoots(listed, { skipMissing: true })])];
    })();
    local.pending = reading;
    local.onRootsChanged();
    void reading.finally(() => {
      if (local.pending !== reading) return;
      local.pending = null;
      local.onRootsChanged();
    });
  };
  local.attach = () => {
    const before = low().oninitialized;
    low().oninitialized = () => {
      before?.();
      ask();
    };
    low().setNotificationHandler("notifications/roots/list_changed", () => ask());
  };
  return local;
}

/**
 * An `McpServer` with one tool per operation. Options: `client` (a `Client`, or `(ctx) => Client`
 * for a client per call), `allow` (operation names; default all), `localFiles` (offer `uploadFile`
 * with a local `path`: stdio only; only inside `roots` (folders) or the client's MCP roots, unless
 * `clientRoots: false`, and only while there is one; `maxFileBytes`, 100 MB by default),
 * `callbackUrl` (the callback URL of every create; a tool call may then set none), `secrets`
 * (strings, such as the API key, blanked out of every answer), `defaultWaitSeconds` (50),
 * `maxWaitSeconds` (600), `graceMs` (15000: what a call may take beyond its wait),
 * `maxInlineBytes` (16 MiB of inlined audio and images per call).
 */
export function createMcpServer(options) {
  if (options === null || typeof options !== "object") return createServer(options); // its TypeError
  if (options.localFiles !== true) return createServer({ ...options, localFiles: null });
  let server;
  const local = localFiles(() => server.server, options);
  server = createServer({ ...options, localFiles: local });
  local.attach?.();
  return server;
}

/**
 * Serves the tools over stdio until stdin closes; resolves with the SDK's handle (`close()`).
 * Local files are on (within `roots` and the client's roots); the callback URL is pinned to
 * `callbackUrl` or to one that goes nowhere; TUNESMITH_API_KEY is blanked out of every answer.
 */
export async function serveMcpStdio(options) {
  const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
  const secrets = [...(options?.secrets ?? []), process.env.TUNESMITH_API_KEY].filter(Boolean);
  return serveStdio(() => createMcpServer({ localFiles: true, ...options, callbackUrl: options?.callbackUrl || NOWHERE, secrets }));
}
