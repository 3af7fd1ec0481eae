// The MCP server mounted in the companion (`createCompanion({ mcp: true })`, Streamable HTTP at
// `{publicUrl}/mcp`). Each tool call runs as the calling user: its Client talks to this very
// companion, in process, with the caller's own headers, so `authorize`, `allow`, the limits and
// task ownership apply to it exactly as to a page's request, and no rule is restated here.
import { createMcpHandler } from "@modelcontextprotocol/server";
import { Client } from "tunesmith";
import { createMcpServer } from "./server.js";

/** Headers of the MCP exchange itself, which say nothing of who the caller is. */
const TRANSPORT_HEADERS = new Set([
  "host", "content-type", "content-length", "accept", "accept-encoding", "connection", "keep-alive", "origin",
  "transfer-encoding", "te", "trailer", "upgrade", "expect", "last-event-id", "mcp-session-id", "mcp-protocol-version",
  "mcp-method", "mcp-name", "referer",
]);

/** The caller's headers (session cookie, bearer token, custom headers) for its forwarded requests. */
function callerHeaders(request) {
  const out = {};
  for (const [name, value] of request?.headers ?? []) if (!TRANSPORT_HEADERS.has(name)) out[name] = value;
  return out;
}

/**
 * The `/mcp` route: `companion` is the companion's own handler, `ctx` its options. Tools are those
 * of `allow` that need no local file; `mcp` may be `true` or the options of `createMcpServer`
 * (`defaultWaitSeconds`, `maxWaitSeconds`, `graceMs`, `maxInlineBytes`).
 */
export function mountMcp(companion, ctx, mcp) {
  const options = mcp === true ? {} : mcp;
  const handler = createMcpHandler(
    ({ requestInfo }) =>
      createMcpServer({
        ...options,
        allow: [...ctx.allow],
        client: new Client({
          companionUrl: ctx.publicUrl,
          headers: callerHeaders(requestInfo),
          fetch: (url, init) => companion(new Request(url, init)),
        }),
      }),
    { onerror: (e) => ctx.log(`companion: mcp: ${e?.message ?? e}`) },
  );
  return { handle: (request) => handler.fetch(request), close: () => handler.close() };
}
