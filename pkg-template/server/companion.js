// `createCompanion`: the server a page talks to instead of the service. It knows the key, the page
// never does; it decides who the caller is, what they may call and how often, and brings the
// service's callbacks to the caller's pages as Server-Sent Events.
import { readOptions } from "./options.js";
import { refuse } from "./answers.js";
import { cors, preflight } from "./cors.js";
import { forward } from "./forward.js";
import { receiveCallback } from "./callbacks.js";
import { eventStream } from "./events.js";

/**
 * Returns a Web-standard handler, `(request: Request) => Promise<Response>`, serving under the path
 * of `publicUrl`: `/music/*` and `/upload/*` (the two hosts of the service, allowed operations
 * only), `/events` (the caller's events, as Server-Sent Events) and `/callbacks/<token>` (the
 * service's callbacks).
 */
export function createCompanion(options) {
  const ctx = readOptions(options);
  const scrub = (text) => String(text).split(ctx.apiKey).join("[redacted]");
  ctx.scrub = scrub;
  const log = ctx.log;
  ctx.log = (line) => {
    try {
      log(scrub(line));
    } catch {
      // A failing logger must not fail a request.
    }
  };

  async function handle(request) {
    const url = new URL(request.url);
    if (!url.pathname.startsWith(ctx.prefix + "/") && url.pathname !== ctx.prefix) {
      return refuse(404, "not_found", "not a route of this companion");
    }
    const path = url.pathname.slice(ctx.prefix.length);
    // The service posts callbacks from its own servers: no origin, no user, only the token.
    if (path.startsWith("/callbacks/")) {
      if (request.method !== "POST") return refuse(405, "method_not_allowed", "callbacks are POSTed");
      return receiveCallback(ctx, path.slice("/callbacks/".length), request);
    }
    const origin = request.headers.get("origin");
    if (origin !== null && origin !== url.origin && origin !== new URL(ctx.publicUrl).origin && !ctx.origins.has(origin)) {
      return refuse(403, "origin_refused", "this origin may not call the companion");
    }
    if (request.method === "OPTIONS") return preflight(origin, request);
    const answer = await authorized(request, async (user) => {
      // Agents: the MCP server, whose tool calls come back through this handler as the caller.
      if (path === "/mcp" && ctx.mcp) return (await mcp()).handle(request);
      if (path === "/events") {
        if (request.method !== "GET") return refuse(405, "method_not_allowed", "the event stream is a GET");
        return eventStream(ctx, user, url, request);
      }
      const host = path.startsWith("/music/") ? "music" : path.startsWith("/upload/") ? "upload" : null;
      if (!host) return refuse(404, "not_found", "not a route of this companion");
      return forward(ctx, user, host, path.slice(host.length + 1), url, request);
    });
    return cors(answer, origin);
  }

  async function authorized(request, then) {
    let user;
    try {
      user = await ctx.authorize(request);
    } catch (e) {
      ctx.log(`companion: authorize threw: ${e?.message ?? e}`);
      return refuse(401, "unauthorized", "sign in first: the companion could not tell who you are");
    }
    if (typeof user === "string" && user !== "") return then(user);
    if (user && typeof user === "object" && (user.status === 401 || user.status === 403)) {
      const word = user.status === 401 ? "unauthorized" : "forbidden";
      return refuse(user.status, word, user.message ?? (user.status === 401 ? "sign in first" : "not allowed"));
    }
    return refuse(401, "unauthorized", "sign in first: the companion could not tell who you are");
  }

  const handler = async (request) => {
    try {
      return await handle(request);
    } catch (e) {
      ctx.log(`companion: ${request.method} ${new URL(request.url).pathname} failed: ${e?.stack ?? e}`);
      return refuse(500, "companion_error", "the companion failed to handle this request; it is logged");
    }
  };
  // Loaded on the first `/mcp` request: a companion without agents never loads the MCP SDK.
  let mounted = null;
  const mcp = () => (mounted ??= import("../mcp/http.js").then((m) => m.mountMcp(handler, ctx, ctx.mcp)));
  handler.close = async () => {
    if (mounted) await (await mounted).close();
    return ctx.store.close?.();
  };
  return handler;
}
