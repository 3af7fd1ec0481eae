// Forwarding a page's request to the service: only allowed operations, checked against the
// package's own rules, the caller's ownership of every task, track, persona and voice it names, and
// the caller's limits, before anything is spent; the key is added here, and the service's answer
// reaches the page with known-good headers only and no secret in it.
import { ROUTES } from "./routes.js";
import { readJson, refuse } from "./answers.js";
import { MAX_BASE64_JSON_BYTES, MAX_JSON_BYTES } from "./options.js";
import { bindTask, dropToken, keepToken, newToken, tokenIsOf } from "./callbacks.js";
import { TASK_IN_FLIGHT_MS, checkRate, taskEnded, taskStarted } from "./limits.js";
import { foreignReference, recordReferences } from "./references.js";
import { placeJsonUpload, placeStreamUpload } from "./uploads.js";
import { validateRequest } from "./wasm.js";

/** @typedef {import("./options.js").Context} Context */
/** @typedef {(typeof ROUTES)[number]} Route */
/** @typedef {import("./upstream.js").UpstreamAnswer} UpstreamAnswer */

const STREAM_UPLOAD = "uploadFile";
const BASE64_UPLOAD = "uploadBase64";

/** Each companion's routes by `"<host> <method> <path>"`, its service segment in the paths. */
/** @type {WeakMap<Context, Map<string, Route>>} */
const routeMaps = new WeakMap();

/** @param {Context} ctx @param {string} host @param {string} method @param {string} path */
function findRoute(ctx, host, method, path) {
  let routes = routeMaps.get(ctx);
  if (!routes) {
    routes = new Map(ROUTES.map((r) => [`${r.host} ${r.method} ${r.path.replace("{svc}", ctx.serviceSegment)}`, r]));
    routeMaps.set(ctx, routes);
  }
  return routes.get(`${host} ${method} ${path}`);
}

/**
 * @param {Context} ctx @param {string} user @param {string} host @param {string} path @param {URL} url
 * @param {Request} request @param {{ bytes: number }} lease
 */
export async function forward(ctx, user, host, path, url, request, lease) {
  const route = findRoute(ctx, host, request.method, path);
  if (!route) return refuse(404, "not_found", `${request.method} ${path} is not an operation of the ${host} host`);
  if (!ctx.allow.has(route.operation)) {
    return refuse(403, "operation_not_allowed", `${route.operation} is not allowed through this companion`);
  }
  const rate = await checkRate(ctx, user);
  if (rate) return rate;
  if (route.operation === STREAM_UPLOAD) return forwardStream(ctx, user, route, request);

  /** @type {Record<string, unknown>} */
  let fields;
  if (route.method === "GET") {
    // One value per field: what is checked is what is forwarded, whichever value a service reads.
    const names = [...url.searchParams.keys()];
    const repeated = names.find((name, i) => names.indexOf(name) !== i);
    if (repeated !== undefined) {
      return refuse(400, "validation", `the query names \`${repeated}\` more than once`, { field: repeated, rule: "repeated" });
    }
    fields = Object.fromEntries(url.searchParams);
  } else {
    const body = await readJson(ctx, request, route.operation === BASE64_UPLOAD ? MAX_BASE64_JSON_BYTES : MAX_JSON_BYTES, lease);
    if ("refusal" in body) return body.refusal;
    fields = body.fields;
  }

  // Every task the request names must be the caller's. A query for a task this companion does not
  // know at all goes to the service, so that one it forgot (a restart) can say so.
  let unknownTask = null;
  for (const name of route.taskIds) {
    const id = fields[name];
    if (id === undefined || id === null || id === "") continue;
    const owner = typeof id === "string" ? await ctx.store.get(`owner:${id}`) : null;
    if (owner === user) continue;
    if (owner === null && route.method === "GET") {
      unknownTask = name;
      continue;
    }
    // The same answer as for an id that does not exist: a guess learns nothing.
    return refuse(404, "not_found", "no task of yours has this id: it is unknown here, or another user's", { field: name });
  }
  const foreign = await foreignReference(ctx, user, fields);
  if (foreign) return foreign;

  let token = null;
  if (route.creates) {
    // The service calls this companion back, never an address the page chose.
    token = await newToken(ctx, user);
    if (route.callback) fields[route.callback] = `${ctx.publicUrl}/callbacks/${token}`;
  }
  try {
    validate(route, url, fields);
  } catch (e) {
    const { message, field, rule } = /** @type {{ message: string, field?: string, rule?: string }} */ (e);
    return refuse(400, "validation", message, { field: field ?? null, rule: rule ?? null });
  }
  if (route.host === "upload") {
    // Each user's files in a folder of their own: no name of one reaches another's file.
    const refusal = await placeJsonUpload(ctx, user, fields);
    if (refusal) return refusal;
  }
  if (token) {
    // The slot is taken (in one step with the count) before the create is sent.
    const busy = await taskStarted(ctx, user, token);
    if (busy) return busy;
    await keepToken(ctx, token, user);
  }

  let target = (host === "music" ? ctx.baseUrl : ctx.uploadUrl) + path;
  if (route.method === "GET") target += `?${new URLSearchParams(/** @type {Record<string, string>} */ (fields))}`;
  const sent = await send(ctx, target, path, request, route.method === "GET" ? undefined : serialize(fields));
  const text = "failure" in sent ? null : await sent.upstream.text().catch(() => null);
  if (token) {
    const taskId = text && createdTaskId(text);
    if (taskId) {
      await ctx.store.set(`owner:${taskId}`, user, Math.max(ctx.retentionMs, TASK_IN_FLIGHT_MS));
      await bindTask(ctx, token, user, taskId);
    } else {
      await dropToken(ctx, token);
      await taskEnded(ctx, user, token);
    }
  }
  if ("failure" in sent) return sent.failure;
  if (text === null) return unreachable();
  if (unknownTask !== null) return unknown(ctx, user, text, unknownTask);
  await recordReferences(ctx, user, text, route.method === "GET" ? `${route.operation} ${url.search}` : null);
  return answer(ctx, sent.upstream, text);
}

/**
 * The answer for a task this companion does not know: a 410 when the service's record carries a
 * callback token of this user's (made before a restart emptied the store), else the 404 of a guess.
 * @param {Context} ctx @param {string} user @param {string} text @param {string} field
 */
async function unknown(ctx, user, text, field) {
  const ours = `${ctx.publicUrl}/callbacks/`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  for (const [, token] of text.matchAll(new RegExp(`${ours}([A-Za-z0-9_-]{43})`, "g"))) {
    if (await tokenIsOf(ctx, token, user)) {
      return refuse(
        410,
        "task_forgotten",
        "this companion no longer knows this task: it was created before the companion restarted (or longer ago than it keeps tasks), and its store kept nothing of it; create it again",
        { field },
      );
    }
  }
  return refuse(404, "not_found", "no task of yours has this id: it is unknown here, or another user's", { field });
}

/** Queries found valid lately, by operation and query string: a record is polled over and over. */
const validQueries = new Set();
const MAX_VALID_QUERIES = 1000;

/**
 * Throws the client's `ValidationError` when `fields` break a rule of the route's operation. A
 * query's fields are its query string's, and the rules are the same for every call: a query found
 * valid once is not checked again.
 * @param {Route} route @param {URL} url @param {Record<string, unknown>} fields
 */
function validate(route, url, fields) {
  const query = route.method === "GET" ? `${route.operation}${url.search}` : null;
  if (query !== null && validQueries.has(query)) return;
  validateRequest(route.operation, checkable(route, fields));
  if (query === null) return;
  if (validQueries.size >= MAX_VALID_QUERIES) validQueries.clear();
  validQueries.add(query);
}

/** The longest text the package's checks read into wasm memory, in UTF-16 units (src/js.rs). */
const MAX_CHECKED_TEXT = 1 << 20;

/**
 * What `validateRequest` checks of `fields`. A Base64 upload's data may be longer than the package
 * reads into wasm memory (it checks the client's own where it is): a short stand-in of the same
 * form then takes its place, so the other fields are checked; the data itself must be text, and the
 * service, for which an upload costs nothing, checks the rest. Shorter data is checked as it is.
 * @param {Route} route @param {Record<string, unknown>} fields
 */
function checkable(route, fields) {
  if (route.operation !== BASE64_UPLOAD || typeof fields.base64Data !== "string") return fields;
  const data = fields.base64Data;
  if (data.length <= MAX_CHECKED_TEXT) return fields;
  const head = data.slice(0, data.indexOf(",") + 1);
  return { ...fields, base64Data: head.startsWith("data:") ? `${head}AAAA` : "AAAA" };
}

/**
 * The JSON of `fields`. A long string field (a Base64 upload's data) is not copied into the result:
 * the text around it is joined to it, and the one copy is the bytes sent.
 * @param {Record<string, unknown>} fields
 */
function serialize(fields) {
  const long = Object.keys(fields).find((k) => typeof fields[k] === "string" && /** @type {string} */ (fields[k]).length > 65536);
  if (long === undefined) return JSON.stringify(fields);
  const value = /** @type {string} */ (fields[long]);
  // Base64 and data URLs need no escaping; anything else is written out as JSON writes it.
  if (!/^[A-Za-z0-9+/=:;,.-]*$/.test(value)) return JSON.stringify(fields);
  // A marker no other field can hold, written where the value goes.
  const marker = JSON.stringify(`\u0000${crypto.randomUUID()}`);
  const around = JSON.stringify({ ...fields, [long]: JSON.parse(marker) });
  const at = around.indexOf(marker);
  return around.slice(0, at + 1) + value + around.slice(at + marker.length - 1);
}

/** @param {string} text */
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

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;
const RETRY_SECONDS = /^\d{1,9}$/;
const HTTP_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The service's answer as the page gets it: its status, a content type from a short list, and
 * `Retry-After`, `Retry-After-Ms` and `X-Request-Id` only when well formed; never a secret.
 * @param {Context} ctx @param {UpstreamAnswer} upstream @param {string} text
 * @returns {import("./answers.js").Reply}
 */
function answer(ctx, upstream, text) {
  const type = (upstream.header("content-type") ?? "").split(";")[0].trim();
  /** @type {Record<string, string>} */
  const headers = {
    "content-type": `${JSON_TYPE.test(type) ? "application/json" : "text/plain"}; charset=utf-8`,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  };
  const retryAfter = upstream.header("retry-after")?.trim();
  if (retryAfter && (RETRY_SECONDS.test(retryAfter) || HTTP_DATE.test(retryAfter))) headers["retry-after"] = retryAfter;
  const retryAfterMs = upstream.header("retry-after-ms")?.trim();
  if (retryAfterMs && RETRY_SECONDS.test(retryAfterMs)) headers["retry-after-ms"] = retryAfterMs;
  const requestId = upstream.header("x-request-id")?.trim();
  if (requestId && REQUEST_ID.test(requestId)) headers["x-request-id"] = requestId;
  return { status: upstream.status, headers, body: ctx.scrub(text) };
}

const unreachable = () => refuse(502, "service_unreachable", "the companion could not reach the service; try again");

/**
 * One request to the service: `{ upstream }`, or `{ failure }`, a 502 that names no secret.
 * @param {Context} ctx @param {string} target @param {string} path @param {Request} request @param {string | undefined} body
 * @param {{ body?: ReadableStream<Uint8Array>, contentType?: string }} [stream]
 * @returns {Promise<{ upstream: UpstreamAnswer } | { failure: import("./answers.js").Reply }>}
 */
async function send(ctx, target, path, request, body, stream = {}) {
  /** @type {Record<string, string>} */
  const headers = { authorization: `Bearer ${ctx.apiKey}`, accept: "application/json" };
  const contentType = body === undefined ? stream.contentType : "application/json";
  if (contentType) headers["content-type"] = contentType;
  for (const name of ctx.forwardHeaders) {
    const v = request.headers.get(name);
    if (v !== null) headers[name] = v;
  }
  try {
    const upstream = await ctx.upstream.send(target, {
      method: request.method,
      headers,
      body: body ?? stream.body,
      // An upload stops when its page leaves; a JSON request is small and ends on its own.
      signal: stream.body ? request.signal : undefined,
    });
    // A redirect is followed nowhere (the key would go along), nor passed on to the page.
    if (upstream.status >= 300 && upstream.status < 400) {
      await upstream.text().catch(() => "");
      throw new Error(`the service answered with a redirect (${upstream.status})`);
    }
    return { upstream };
  } catch (e) {
    const error = /** @type {{ cause?: { code?: string }, code?: string, message?: string }} */ (e);
    ctx.log(`companion: ${request.method} ${path} did not reach the service: ${error?.cause?.code ?? error?.code ?? error?.message ?? e}`);
    return { failure: unreachable() };
  }
}

/**
 * A stream upload, passed through chunk by chunk: memory stays flat whatever the file's size. Its
 * multipart body is rewritten on the way to put the file in the user's folder.
 * @param {Context} ctx @param {string} user @param {Route} route @param {Request} request
 */
async function forwardStream(ctx, user, route, request) {
  const max = ctx.limits.uploadBytes;
  const tooLarge = () =>
    refuse(413, "upload_too_large", `an upload through this companion is at most ${max} bytes`, { limit: max });
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) return tooLarge();
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
  const contentType = request.headers.get("content-type") ?? "";
  const placed = await placeStreamUpload(ctx, user, counted, contentType);
  if ("refusal" in placed) {
    await counted.cancel().catch(() => {});
    return placed.refusal;
  }
  const sent = await send(ctx, ctx.uploadUrl + route.path, route.path, request, undefined, { body: placed.body, contentType });
  if (seen > max) return tooLarge();
  const problem = placed.problem();
  if (problem) return problem;
  if ("failure" in sent) return sent.failure;
  const text = await sent.upstream.text().catch(() => null);
  return text === null ? unreachable() : answer(ctx, sent.upstream, text);
}
