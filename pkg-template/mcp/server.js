// The MCP server of the package's operations, without a transport and without any Node module:
// the companion mounts it (`./http.js`, which may run on Workers and Deno), and the Node entry
// (`./index.js`) adds what reads local files. Built on the official SDK's server package; every
// tool is a thin call of the package's `Client`.
import { McpServer } from "@modelcontextprotocol/server";
import { DEFAULT_GRACE_MS, DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS, registerTools } from "./tools.js";

export { DEFAULT_GRACE_MS, DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS };

/** The package's version, for the server's `serverInfo`. */
const VERSION = "__VERSION__";

function readOptions(o) {
  if (!o || typeof o !== "object") throw new TypeError("tunesmith/mcp takes an options object");
  const client = typeof o.client === "function" ? o.client : () => o.client;
  if (o.client === undefined || o.client === null) {
    throw new TypeError("tunesmith/mcp: `client` must be a tunesmith Client (or a function of the call returning one)");
  }
  const maxWaitSeconds = o.maxWaitSeconds ?? MAX_WAIT_SECONDS;
  const defaultWaitSeconds = Math.min(o.defaultWaitSeconds ?? DEFAULT_WAIT_SECONDS, maxWaitSeconds);
  for (const [name, v] of Object.entries({ maxWaitSeconds, defaultWaitSeconds, graceMs: o.graceMs ?? DEFAULT_GRACE_MS })) {
    if (!(Number.isFinite(v) && v >= 0)) throw new TypeError(`tunesmith/mcp: \`${name}\` must be a number, 0 or more`);
  }
  if (o.allow !== undefined && !Array.isArray(o.allow)) throw new TypeError("tunesmith/mcp: `allow` must list operation names");
  return {
    client,
    allow: o.allow ? new Set(o.allow) : null,
    localFiles: o.localFiles && typeof o.localFiles.read === "function" ? o.localFiles : null,
    callbackUrl: o.callbackUrl,
    secrets: Array.isArray(o.secrets) ? o.secrets : [],
    maxWaitSeconds,
    defaultWaitSeconds,
    graceMs: o.graceMs ?? DEFAULT_GRACE_MS,
    maxInlineBytes: o.maxInlineBytes ?? 16 * 1024 * 1024,
    fetch: o.fetch ?? ((...a) => globalThis.fetch(...a)),
  };
}

/**
 * An `McpServer` with one tool per operation. Options: `client` (a `Client`, or `(ctx) => Client`
 * for a client per call), `allow` (operation names; default all), `localFiles` (`{ roots, maxBytes,
 * read(path) }`, `roots` a live list: offers `uploadFile` with a local `path` while it is not
 * empty; given by `tunesmith/mcp`'s Node entry, never over HTTP), `callbackUrl` (the callback of
 * every create: a tool call may then set none), `secrets` (strings blanked out of every answer),
 * `defaultWaitSeconds` (50), `maxWaitSeconds` (600), `graceMs` (15000: what a call may take
 * beyond its wait), `maxInlineBytes` (16 MiB of inlined audio and images per call).
 */
export function createMcpServer(options) {
  const o = readOptions(options);
  const server = new McpServer(
    { name: "tunesmith", version: VERSION },
    {
      instructions:
        "Music generation: each tool is an operation of the service. Creating tools start a task and wait for it up to " +
        "`waitSeconds`; a task still running is answered with its current record: call its status tool with `waitSeconds` to keep waiting. " +
        "Tracks come as resource links (audio URL, title, duration); ask `inlineAudio` for the audio itself.",
    },
  );
  registerTools(server, o);
  return server;
}

