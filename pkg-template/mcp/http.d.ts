// The `/mcp` route's module, as the companion (server/companion.js, checked by tsc) loads it.

/** Longest `/mcp` body: a tool call's arguments are an operation's body, in a small envelope. */
export const MAX_MCP_BYTES: number;
/** Longest `/mcp` body when `uploadBase64` is allowed: its data, in the same envelope. */
export const MAX_MCP_BASE64_BYTES: number;
/** Audio and images inlined per call over HTTP unless `mcp.maxInlineBytes` says otherwise. */
export const DEFAULT_HTTP_INLINE_BYTES: number;
/** How many times an inlined byte counts in `bodyBytesInFlight`, at its Base64 size. */
export const INLINE_COPIES: number;

/**
 * The `/mcp` route: `companion` is the companion's own handler, `ctx` its options. Tools are those
 * of `allow` that need no local file; `mcp` may be `true` or the options of `createMcpServer`.
 * `handle(request, user)` holds the request to the companion's limits and answers with its Reply.
 */
export function mountMcp(
  companion: (request: Request) => Promise<Response>,
  ctx: import("../server/options.js").Context,
  mcp: true | Record<string, unknown>,
): {
  handle(request: Request, user: string): Promise<import("../server/answers.js").Reply>;
  close(): Promise<void>;
};
