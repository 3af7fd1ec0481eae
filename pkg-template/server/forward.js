// Forwarding a page's request to the service: only allowed operations, checked against the
// package's own rules and the caller's limits before anything is spent, with the key added here.
import { validateRequest } from "../tunesmith.js";
import { ROUTES } from "./routes.js";
import { readCapped, refuse } from "./answers.js";
import { MAX_JSON_BYTES } from "./options.js";
import { newToken, bindTask } from "./callbacks.js";
import { checkRate, checkTasksInFlight, taskEnded, taskStarted } from "./limits.js";

const STREAM_UPLOAD = "uploadFile";
// Workers do not implement `redirect: "error"`; there "manual" hands the 3xx back and `send`
// refuses it, so a redirect is followed nowhere.
const REDIRECT = globalThis.navigator?.userAgent === "Cloudflare-Workers" ? "manual" : "error";

function findRoute(ctx, host, method, path) {
  return ROUTES.find(
    (r) => r.host === host && r.method === method && r.path.replace("{svc}", ctx.serviceSegment) === path,
  );
}

/** The task ids a request names (`taskId`, `task_id`, `sunoTaskId`: the route lists them), which
 * must all be the caller's. */
async function ownsReferencedTasks(ctx, user, route, fields) {
  for (const name of route.taskIds) {
    const id = fields[name];
    if (id === undefined || id === null || id === "") continue;
    if ((await ctx.store.get(`owner:${id}`)) !== user) return name;
  }
  return null;
}

export async function forward(ctx, user, host, path, url, request) {
  const route = findRoute(ctx, host, request.method, path);
  if (!route) return refuse(404, "not_found", `${request.method} ${path} is not an operation of the ${host} host`);
  if (!ctx.allow.has(route.operation)) {
    return refuse(403, "operation_not_allowed", `${route.operation} is not allowed through this companion`);
  }
  const rate = await checkRate(ctx, user);
  if (rate) return rate;
  if (route.operation === STREAM_UPLOAD) return forwardStream(ctx, route, url, request);

  let fields;
  if (route.method === "GET") {
    fields = Object.fromEntries(url.searchParams);
  } else {
    const bytes = await readCapped(request.body, MAX_JSON_BYTES);
    if (bytes === null) return refuse(413, "too_large", `a JSON request is at most ${MAX_JSON_BYTES} bytes`);
    try {
      fields = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return refuse(400, "validation", "the request body is not JSON", { field: "request", rule: "type" });
    }
    if (!fields || typeof fields !== "object" || Array.isArray(fields)) {
      return refuse(400, "validation", "the request body must be a JSON object", { field: "request", rule: "type" });
    }
  }
  const foreign = await ownsReferencedTasks(ctx, user, route, fields);
  if (foreign) {
    // The same answer as for an id that does not exist: a guess learns nothing.
    return refuse(404, "not_found", "no task of yours has this id", { field: foreign });
  }
  let token = null;
  if (route.creates) {
    const busy = await checkTasksInFlight(ctx, user);
    if (busy) return busy;
    // The service calls this companion back, never an address the page chose.
    token = await newToken(ctx, user);
    // The slot is taken before the create is sent, so that concurrent creates cannot all pass.
    await taskStarted(ctx, user, token);
    // The field the operation takes it in (`callBackUrl`, or regenerate's `calBackUrl`).
    if (route.callback) fields[route.callback] = `${ctx.publicUrl}/callbacks/${token}`;
  }
  try {
    validateRequest(route.operation, fields);
  } catch (e) {
    if (token) await taskEnded(ctx, user, token);
    return refuse(400, "validation", e.message, { field: e.field ?? null, rule: e.rule ?? null });
  }
  const target = new URL((host === "music" ? ctx.baseUrl : ctx.uploadUrl) + path);
  if (route.method === "GET") target.search = url.search;
  const { upstream, failure } = await send(ctx, target, request, route.method === "GET" ? undefined : JSON.stringify(fields));
  const text = failure ? null : await upstream.text();
  if (route.creates) {
    const taskId = text && createdTaskId(text);
    if (taskId) {
      await ctx.store.set(`owner:${taskId}`, user, ctx.retentionMs);
      await bindTask(ctx, token, user, taskId);
    } else {
      await taskEnded(ctx, user, token);
    }
  }
  if (failure) return failure;
  return answer(ctx, upstream, text);
}

function createdTaskId(text) {
  try {
    const body = JSON.parse(text);
    if (body?.code !== 200) return null;
    const id = typeof body.data === "string" ? body.data : body.data?.taskId;
    return typeof id === "string" && id ? id : null;
  } catch {
    return null;
  }
}

/** A record's `param` repeats the create's `callBackUrl`: its token stays between us and the service. */
const CALLBACK_TOKEN = /\/callbacks\/[A-Za-z0-9_-]{43}/g;

/** The service's answer as the page gets it: status, type, Retry-After, never the key or a token. */
function answer(ctx, upstream, text) {
  const headers = { "content-type": upstream.headers.get("content-type") ?? "application/json", "cache-control": "no-store" };
  const retryAfter = upstream.headers.get("retry-after");
  if (retryAfter) headers["retry-after"] = retryAfter;
  const body = ctx.scrub(text).replace(CALLBACK_TOKEN, "/callbacks/[redacted]");
  return new Response(body, { status: upstream.status, headers });
}

function upstreamHeaders(ctx, request, contentType) {
  const headers = new Headers({ authorization: `Bearer ${ctx.apiKey}`, accept: "application/json" });
  if (contentType) headers.set("content-type", contentType);
  for (const name of ctx.forwardHeaders) {
    const v = request.headers.get(name);
    if (v !== null) headers.set(name, v);
  }
  return headers;
}

/** One request to the service: `{ upstream }`, or `{ failure }`, a 502 that names no secret. */
async function send(ctx, target, request, body, init = {}) {
  try {
    const upstream = await ctx.fetch(target.href, {
      method: request.method,
      headers: upstreamHeaders(ctx, request, body === undefined ? init.contentType : "application/json"),
      body: body ?? init.body,
      duplex: init.body ? "half" : undefined,
      // Never follow a redirect (the key would go along); and with any other mode, fetch tees the
      // body to replay it after a redirect, keeping every chunk of an upload in memory.
      redirect: REDIRECT,
      signal: request.signal,
    });
    if (upstream.type === "opaqueredirect" || (upstream.status >= 300 && upstream.status < 400)) {
      await upstream.body?.cancel();
      throw new Error(`the service answered with a redirect (${upstream.status})`);
    }
    return { upstream };
  } catch (e) {
    ctx.log(`companion: ${request.method} ${target.pathname} did not reach the service: ${e?.cause?.code ?? e?.message ?? e}`);
    return { failure: refuse(502, "service_unreachable", "the companion could not reach the service; try again") };
  }
}

/** A stream upload, passed through chunk by chunk: memory stays flat whatever the file's size. */
async function forwardStream(ctx, route, url, request) {
  const max = ctx.limits.uploadBytes;
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) {
    return refuse(413, "upload_too_large", `an upload through this companion is at most ${max} bytes`, { limit: max });
  }
  if (!request.body) return refuse(400, "validation", "an upload needs a multipart/form-data body", { field: "file", rule: "required" });
  let seen = 0;
  // Without a Content-Length, the count stops the stream once it passes the limit.
  const counted = request.body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > max) controller.error(new Error(`upload past ${max} bytes`));
        else controller.enqueue(chunk);
      },
    }),
  );
  const target = new URL(ctx.uploadUrl + route.path);
  const { upstream, failure } = await send(ctx, target, request, undefined, {
    body: counted,
    contentType: request.headers.get("content-type") ?? "application/octet-stream",
  });
  if (seen > max) {
    return refuse(413, "upload_too_large", `an upload through this companion is at most ${max} bytes`, { limit: max });
  }
  if (failure) return failure;
  return answer(ctx, upstream, await upstream.text());
}
