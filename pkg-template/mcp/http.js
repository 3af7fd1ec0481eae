// The MCP server mounted in the companion (`createCompanion({ mcp: true })`, Streamable HTTP at
// `{publicUrl}/mcp`). Each tool call runs as the calling user: its Client talks to this very
// companion, in process, with the caller's own headers, so `authorize`, `allow`, the limits and
// task ownership apply to it exactly as to a page's request, and no rule is restated here. The
// `/mcp` request itself is held to the companion's limits too: it counts in the caller's requests
// per window and in flight, its body (capped small) and the audio and images it inlines (each byte
// as many times as the answer copies it) in the body bytes in flight, and a `subscriptions/listen`
// as one of the caller's event streams.
import { createMcpHandler } from "@modelcontextprotocol/server";
import { Client } from "tunesmith";
import { createMcpServer } from "./server.js";
import { fromResponse, giveBack, readText, takeBytes } from "../server/answers.js";
import { checkRate, requestStarted, streamOpened } from "../server/limits.js";
import { MAX_BASE64_JSON_BYTES, MAX_JSON_BYTES } from "../server/options.js";

/** Longest `/mcp` body: a tool call's arguments are an operation's body, in a small envelope. */
export const MAX_MCP_BYTES = MAX_JSON_BYTES;
/** Longest `/mcp` body when `uploadBase64` is allowed: its data, in the same envelope. */
export const MAX_MCP_BASE64_BYTES = MAX_BASE64_JSON_BYTES + MAX_JSON_BYTES;
/** Audio and images inlined per call over HTTP unless `mcp.maxInlineBytes` says otherwise. */
export const DEFAULT_HTTP_INLINE_BYTES = 1024 * 1024;

/**
 * How many times an inlined byte counts in `bodyBytesInFlight`, at its Base64 size: the answer holds
 * it as the Base64 text, in the JSON-RPC message, in its event-stream frame and as the frame's bytes
 * written out, besides the download itself, kept as garbage until the next collection.
 */
export const INLINE_COPIES = 4;

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

/** The `tools/list` result of each allow list (and options): the same for every caller. */
const toolLists = new Map();

/**
 * A fetch that counts what it downloads (inlined audio and images, as Base64 in the answer, times
 * `INLINE_COPIES`) in the companion's body bytes in flight, in `lease`: a declared length is taken
 * from the budget before any of it is read, an undeclared one as it arrives. Past the budget, the
 * download fails, the rest of it unread (the tool answers with the link instead).
 */
function countingFetch(ctx, lease, fetch) {
  const size = (bytes) => Math.ceil(bytes / 3) * 4 * INLINE_COPIES;
  const full = () => new Error("the companion holds as many bytes as it may at once");
  return async (url, init) => {
    const response = await fetch(url, init);
    const declared = Number(response.headers.get("content-length") ?? NaN);
    // Bytes of the download taken from the budget so far.
    let taken = 0;
    if (Number.isFinite(declared)) {
      if (!takeBytes(ctx, lease, size(declared))) {
        await response.body?.cancel().catch(() => {});
        throw full();
      }
      taken = declared;
    }
    if (!response.body) return response;
    let read = 0;
    const counted = response.body.pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          read += chunk.byteLength;
          if (read > taken && !takeBytes(ctx, lease, size(read) - size(taken))) return controller.error(full());
          taken = Math.max(taken, read);
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** A JSON-RPC error answer of the route's own (the body could not be read as JSON). */
const parseError = () => ({
  status: 400,
  headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  body: JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the request body is not JSON" }, id: null }),
});

/**
 * The `/mcp` route: `companion` is the companion's own handler, `ctx` its options. Tools are those
 * of `allow` that need no local file; `mcp` may be `true` or the options of `createMcpServer`
 * (`defaultWaitSeconds`, `maxWaitSeconds`, `graceMs`, `maxInlineBytes`: default
 * `DEFAULT_HTTP_INLINE_BYTES` here). `handle(request, user)` answers with the companion's Reply.
 */
export function mountMcp(companion, ctx, mcp) {
  const options = mcp === true ? {} : mcp;
  const fetch = options.fetch ?? ((...a) => globalThis.fetch(...a));
  const maxBytes = ctx.allow.has("uploadBase64") ? MAX_MCP_BASE64_BYTES : MAX_MCP_BYTES;
  const listKey = JSON.stringify([[...ctx.allow].sort(), options]);
  /** Each request's lease of body bytes, for the fetch of its server. */
  const leases = new WeakMap();
  const handler = createMcpHandler(
    ({ requestInfo }) => {
      const server = createMcpServer({
        maxInlineBytes: DEFAULT_HTTP_INLINE_BYTES,
        ...options,
        allow: [...ctx.allow],
        fetch: countingFetch(ctx, leases.get(requestInfo) ?? { bytes: 0 }, fetch),
        client: new Client({
          companionUrl: ctx.publicUrl,
          headers: callerHeaders(requestInfo),
          fetch: (url, init) => companion(new Request(url, init)),
        }),
      });
      cacheToolList(server, listKey);
      return server;
    },
    { onerror: (e) => ctx.log(`companion: mcp: ${e?.message ?? e}`) },
  );

  async function handle(request, user) {
    const rate = await checkRate(ctx, user);
    if (rate) return rate;
    const lease = { bytes: 0 };
    /** @type {{ done(): void } | null} */
    let slot = null;
    let released = false;
    let handedOver = false;
    const release = () => {
      if (released) return;
      released = true;
      giveBack(ctx, lease);
      slot?.done();
    };
    try {
      const started = requestStarted(ctx, user);
      if ("refusal" in started) return started.refusal;
      slot = started;
      let parsedBody;
      if (request.method.toUpperCase() === "POST") {
        const body = await readText(ctx, request, maxBytes, lease);
        if ("refusal" in body) return body.refusal;
        try {
          parsedBody = JSON.parse(body.text);
        } catch {
          return parseError();
        }
        if (parsedBody?.method === "subscriptions/listen") {
          // A listen stays open: one of the caller's event streams, not a request in flight.
          const stream = streamOpened(ctx, user);
          if ("refusal" in stream) return stream.refusal;
          started.done();
          slot = stream;
        }
      }
      leases.set(request, lease);
      const reply = fromResponse(await handler.fetch(request, parsedBody === undefined ? undefined : { parsedBody }));
      reply.release = release;
      handedOver = true;
      return reply;
    } finally {
      // A refusal, or an answer that failed to come: nothing is held past this.
      if (!handedOver) release();
    }
  }
  return { handle, close: () => handler.close() };
}

/**
 * Answers `server`'s `tools/list` with the result of the first server of the same allow list and
 * options: the tools' JSON Schemas are worked out once, not for each request.
 */
function cacheToolList(server, key) {
  const handlers = server.server?._requestHandlers;
  const original = handlers?.get?.("tools/list");
  if (typeof original !== "function") return;
  handlers.set("tools/list", (request, extra) => {
    let list = toolLists.get(key);
    if (!list) {
      list = original(request, extra);
      if (toolLists.size >= 16) toolLists.clear();
      toolLists.set(key, list);
      list.catch(() => toolLists.delete(key));
    }
    return list;
  });
}
