// `tunesmith mcp` spawned as a host spawns it, driven by the official MCP client, for the MCP
// suites: its stderr kept, and the emulator's request log read around a call.
import { join } from "node:path";
import { Client, StdioClientTransport } from "./mcp-client.mjs";
import { KEY, MUSIC, PKG, UPLOAD } from "../companion/harness.mjs";

export const CLI = join(PKG, "cli", "tunesmith.js");

/** The environment of the server: the emulator's hosts and the test key, then `env` (undefined drops one). */
export function serverEnv(env = {}) {
  const out = { PATH: process.env.PATH, TUNESMITH_API_KEY: KEY, TUNESMITH_BASE_URL: MUSIC, TUNESMITH_UPLOAD_URL: UPLOAD, ...env };
  for (const [k, v] of Object.entries(out)) if (v === undefined) delete out[k];
  return out;
}

/**
 * A connected client of `tunesmith mcp ...args`: `{ client, stderr() }`. `options` are the SDK
 * client's (its `capabilities`), `roots` (file URIs) makes it answer `roots/list` with them.
 */
export async function spawnMcp({ args = [], env = {}, options = {}, roots = null } = {}) {
  const client = new Client({ name: "tunesmith-tests", version: "1.0.0" }, roots ? { ...options, capabilities: { roots: { listChanged: true } } } : options);
  const state = { roots };
  if (roots) client.setRequestHandler("roots/list", () => ({ roots: state.roots.map((uri) => ({ uri })) }));
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", ...args], env: serverEnv(env), stderr: "pipe" });
  let err = "";
  transport.stderr?.on("data", (d) => (err += d));
  await client.connect(transport).catch((e) => {
    throw new Error(`tunesmith mcp ${args.join(" ")} did not start: ${e.message}\n${err}`);
  });
  return {
    client,
    stderr: () => err,
    /** Replaces the client's roots and tells the server (`notifications/roots/list_changed`). */
    setRoots: async (list) => {
      state.roots = list;
      await client.sendRootsListChanged();
    },
    close: () => client.close(),
  };
}

/** The text blocks of a tool result, joined. */
export const text = (result) => result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

/** The emulator's request log from `since` (a seq): `{ requests, last }`. */
export async function requestsSince(since = 0) {
  const { requests } = await (await fetch(`${MUSIC}/_emulator/requests?since=${since}`)).json();
  return { requests, last: requests.reduce((m, r) => Math.max(m, r.seq), since) };
}

/** Lists the tools until `ready(tools)` holds (the server may change them after a notification), at most `tries` times. */
export async function toolsWhen(client, ready, tries = 200) {
  let tools = [];
  for (let i = 0; i < tries; i++) {
    tools = (await client.listTools()).tools;
    if (ready(tools)) return tools;
    await new Promise((r) => setTimeout(r, 25));
  }
  return tools;
}
