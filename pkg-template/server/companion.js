// `createCompanion`: the server a page talks to instead of the service. It knows the key, the page
// never does; it decides who the caller is, what they may call and how often, and brings the
// service's callbacks to the caller's pages as Server-Sent Events.
import { readOptions } from "./options.js";
import { REPLY, refuse, toResponse } from "./answers.js";
import { cors, preflight } from "./cors.js";
import { forward } from "./forward.js";
import { receiveCallback } from "./callbacks.js";
import { eventStream } from "./events.js";
import { requestStarted } from "./limits.js";

/** @typedef {import("./options.js").CompanionOptions} CompanionOptions */
/** @typedef {import("./options.js").Context} Context */

/**
 * A Web-standard handler, as Node (through `toNodeListener`), Deno, Bun, Workers and Next use.
 * `origin` is `publicUrl`'s, which `toNodeListener` builds request URLs from; `close()` releases
 * the store's connections and timers and the pool of connections to the service.
 * @typedef {((request: Request) => Promise<Response>) & { origin: string, close(): Promise<void> }} CompanionHandler
 */

/**
 * The companion: serves `/music/*` and `/upload/*` (the allowed operations, with the key added),
 * `/events` (the caller's task events as Server-Sent Events) and `/callbacks/<token>` (the
 * service's callbacks) under the path of `publicUrl`.
 * @param {CompanionOptions} options
 * @returns {CompanionHandler}
 */
export function createCompanion(options) {
  const ctx = readOptions(options);
  ctx.upstream.onWarning(ctx.log);

  /** @param {Request} request @returns {Promise<import("./answers.js").Reply>} */
  async function handle(request) {
    // A page on another name that resolves here (DNS rebinding) or a proxy misdirecting requests
    // names another host: refused before anything else. A request read off a socket (in Node, by
    // `toNodeListener`) carries the client's Host as sent, a missing one too; a Web Request made
    // without one (in process, as the MCP route's tool calls are) is judged by its URL.
    const host = request.headers.get("host") ?? (request instanceof Request ? new URL(request.url).host : null);
    if (!ctx.hostAllowed(host)) {
      return refuse(421, "host_refused", "this companion answers for its own host only (publicUrl's, or one of allowedHosts)");
    }
    // Only the path and query of the request's URL are read: its origin may come from a Host
    // header, which anyone can write. The companion's origin is publicUrl's.
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
    if (origin !== null && origin !== ctx.publicOrigin && !ctx.origins.has(origin)) {
      return refuse(403, "origin_refused", "this origin may not call the companion");
    }
    if (request.method === "OPTIONS") return preflight(origin, request);
    const answer = await authorized(request, async (user) => {
      // Agents: the MCP server, whose tool calls come back through this handler as the caller.
      if (path === "/mcp" && ctx.mcp) return (await mcp(ctx.mcp)).handle(request, user);
      if (path === "/events") {
        if (request.method !== "GET") return refuse(405, "method_not_allowed", "the event stream is a GET");
        return eventStream(ctx, user, url, request);
      }
      const host = path.startsWith("/music/") ? "music" : path.startsWith("/upload/") ? "upload" : null;
      if (!host) return refuse(404, "not_found", "not a route of this companion");
      const started = requestStarted(ctx, user);
      if ("refusal" in started) return started.refusal;
      const lease = { bytes: 0 };
      try {
        return await forward(ctx, user, host, path.slice(host.length + 1), url, request, lease);
      } finally {
        ctx.inFlight.bodyBytes -= lease.bytes;
        started.done();
      }
    });
    return cors(answer, origin);
  }

  /**
   * @param {Request} request @param {(user: string) => Promise<import("./answers.js").Reply>} then
   */
  async function authorized(request, then) {
    let user;
    try {
      user = await ctx.authorize(request);
    } catch (e) {
      ctx.log(`companion: authorize threw: ${/** @type {Error} */ (e)?.message ?? e}`);
      return refuse(401, "unauthorized", "sign in first: the companion could not tell who you are");
    }
    if (typeof user === "string" && user !== "") return then(user);
    if (user && typeof user === "object" && (user.status === 401 || user.status === 403)) {
      const word = user.status === 401 ? "unauthorized" : "forbidden";
      return refuse(user.status, word, user.message ?? (user.status === 401 ? "sign in first" : "not allowed"));
    }
    return refuse(401, "unauthorized", "sign in first: the companion could not tell who you are");
  }

  /** @param {Request} request */
  const reply = async (request) => {
    try {
      return await handle(request);
    } catch (e) {
      // The log line names the path, whose callback token (if any) the log cuts out.
      ctx.log(`companion: ${request.method} ${new URL(request.url).pathname} failed: ${/** @type {Error} */ (e)?.stack ?? e}`);
      return refuse(500, "companion_error", "the companion failed to handle this request; it is logged");
    }
  };
  /** @param {Request} request */
  const handler = async (request) => toResponse(await reply(request));
  // Loaded on the first `/mcp` request: a companion without agents never loads the MCP SDK.
  /** @type {Promise<{ handle(request: Request, user: string): Promise<import("./answers.js").Reply>, close(): Promise<void> }> | null} */
  let mounted = null;
  const mcp = (/** @type {true | Record<string, unknown>} */ options) =>
    (mounted ??= import("../mcp/http.js").then((m) => m.mountMcp(handler, ctx, options)));
  return Object.assign(handler, {
    [REPLY]: reply,
    origin: ctx.publicOrigin,
    async close() {
      if (mounted) await (await mounted).close();
      await Promise.all([ctx.store.close?.(), ctx.upstream.close()]);
    },
  });
}
