// The `/mcp` route's module, as the companion (server/companion.js, checked by tsc) loads it.

/**
 * The `/mcp` route: `companion` is the companion's own handler, `ctx` its options. Tools are those
 * of `allow` that need no local file; `mcp` may be `true` or the options of `createMcpServer`.
 */
export function mountMcp(
  companion: (request: Request) => Promise<Response>,
  ctx: { allow: Set<string>; publicUrl: string; log(line: string): void },
  mcp: true | Record<string, unknown>,
): { handle(request: Request): Promise<Response>; close(): Promise<void> };
