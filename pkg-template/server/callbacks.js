// The service's callbacks, received for the page. Each create's `callBackUrl` carries a token that
// only this companion and the service know (the service signs nothing): 128 random bits and a MAC
// of them and the user's id under a key derived from the API key, so that the token proves whose
// it is even to an instance that has forgotten it. A token is bound to the one task its create
// answered with, and dies with that task (its final callback) or with a refused create. What a
// callback says is its URL's holder's word, not the service's: the ids of tracks, personas and voices
// it names become its user's only once the service's record of the task names them too.
import { readCapped, json, refuse } from "./answers.js";
import { MAX_CALLBACK_BYTES } from "./options.js";
import { taskEnded } from "./limits.js";
import { publish } from "./events.js";
import { parseCallback } from "./wasm.js";
import { namedIds, recordReferences } from "./references.js";
import { ROUTES } from "./routes.js";

/** @typedef {import("./options.js").Context} Context */
/** @typedef {{ user: string, task: string | null, ended?: boolean }} Binding */

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** How long a callback that overtook its create's answer waits for it (the service allows 15 s). */
const BIND_WAIT_MS = 10_000;
const BIND_POLL_MS = 100;

/** @type {WeakMap<Context, Promise<CryptoKey>>} */
const macKeys = new WeakMap();

/** The HMAC key of a companion's tokens: derived from the API key, never the key itself. @param {Context} ctx */
function macKey(ctx) {
  let key = macKeys.get(ctx);
  if (!key) {
    key = crypto.subtle
      .digest("SHA-256", new TextEncoder().encode(`tunesmith companion callback tokens\u0000${ctx.apiKey}`))
      .then((raw) => crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]));
    macKeys.set(ctx, key);
  }
  return key;
}

/** @param {Uint8Array} bytes */
const base64url = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** The MAC half of a token: 16 bytes of HMAC(nonce, user). @param {Context} ctx @param {Uint8Array} nonce @param {string} user */
async function mac(ctx, nonce, user) {
  const message = new Uint8Array([...nonce, ...new TextEncoder().encode(user)]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", await macKey(ctx), message)).subarray(0, 16);
}

/** A new token of `user`: 32 bytes, URL-safe Base64 (43 characters). Nothing is stored yet. @param {Context} ctx @param {string} user */
export async function newToken(ctx, user) {
  const nonce = crypto.getRandomValues(new Uint8Array(16));
  return base64url(new Uint8Array([...nonce, ...(await mac(ctx, nonce, user))]));
}

/** Whether `token` was made by this companion (this key) for `user`. @param {Context} ctx @param {string} token @param {string} user */
export async function tokenIsOf(ctx, token, user) {
  if (!TOKEN.test(token)) return false;
  const bytes = Uint8Array.from(atob(token.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const expected = await mac(ctx, bytes.subarray(0, 16), user);
  let diff = 0;
  for (let i = 0; i < 16; i++) diff |= expected[i] ^ bytes[16 + i];
  return diff === 0;
}

/** Keeps a token whose create is about to be sent; its task is not known yet. @param {Context} ctx @param {string} token @param {string} user */
export async function keepToken(ctx, token, user) {
  await ctx.store.set(`token:${token}`, JSON.stringify({ user, task: null }), ctx.retentionMs);
}

/** The create answered with `taskId`: the token answers for that task only. @param {Context} ctx @param {string} token @param {string} user @param {string} taskId */
export async function bindTask(ctx, token, user, taskId) {
  await ctx.store.set(`token:${token}`, JSON.stringify({ user, task: taskId }), ctx.retentionMs);
  ctx.binding.get(token)?.();
}

/** The create was refused (or never answered): its token is dropped. @param {Context} ctx @param {string} token */
export async function dropToken(ctx, token) {
  await ctx.store.delete(`token:${token}`);
  ctx.binding.get(token)?.();
}

/** @param {Context} ctx @param {string} token @returns {Promise<Binding | null>} */
async function binding(ctx, token) {
  const text = await ctx.store.get(`token:${token}`);
  return text === null ? null : JSON.parse(text);
}

/**
 * The binding of a token whose create has not answered yet, once it has (at most `BIND_WAIT_MS`):
 * told at once by a create in flight on this instance, read from the store for one on another.
 * @param {Context} ctx @param {string} token
 */
async function boundLater(ctx, token) {
  const deadline = Date.now() + BIND_WAIT_MS;
  for (;;) {
    const current = await binding(ctx, token);
    if (current === null || current.task !== null || Date.now() >= deadline) return current;
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, BIND_POLL_MS);
      ctx.binding.set(token, () => (clearTimeout(timer), resolve(undefined)));
    });
    ctx.binding.delete(token);
  }
}

/** @param {Context} ctx @param {string} token @param {Request} request */
export async function receiveCallback(ctx, token, request) {
  const unknown = () => refuse(403, "forbidden", "not a callback URL of this companion");
  if (!TOKEN.test(token)) return unknown();
  let bound = await binding(ctx, token);
  if (!bound) return unknown();
  const bytes = await readCapped(request.body, MAX_CALLBACK_BYTES);
  if (bytes === null) return refuse(413, "too_large", "a callback is at most 1 MB");
  let event;
  try {
    event = parseCallback(bytes);
  } catch (e) {
    return refuse(400, "validation", `not a callback of the service: ${/** @type {Error} */ (e).message}`);
  }
  if (bound.task === null) {
    // The callback overtook the create's answer: only that answer binds the token.
    bound = await boundLater(ctx, token);
    if (!bound) return unknown();
    if (bound.task === null) {
      return refuse(503, "not_ready", "this callback URL's task is not known yet; deliver it again", {}, { "retry-after": "1" });
    }
  }
  const { user } = bound;
  if (bound.task !== event.taskId) return refuse(403, "forbidden", "this callback URL belongs to another task");
  const key = `seen:${event.family}:${event.taskId}:${event.stage}:${event.state}`;
  if (bound.ended) {
    // The task is over: a redelivery of what was received is answered, anything else is forged.
    if ((await ctx.store.get(key)) !== null) return json(200, { code: 200, msg: "already received" });
    return refuse(403, "forbidden", "this callback URL's task has ended");
  }
  if (!(await ctx.store.setIfAbsent(key, "1", ctx.retentionMs))) {
    return json(200, { code: 200, msg: "already received" });
  }
  const { raw, ...shaped } = event;
  try {
    if (!(await confirmReferences(ctx, user, event.family, bound.task, new TextDecoder().decode(bytes)))) {
      await ctx.store.delete(key);
      return refuse(503, "service_unreachable", "the companion could not read this task's record; deliver it again", {}, { "retry-after": "1" });
    }
    await publish(ctx, user, shaped);
  } catch (e) {
    // Not received after all: the service's next delivery must count as new.
    await ctx.store.delete(key).catch(() => {});
    throw e;
  }
  if (event.state === "succeeded" || event.state === "failed") {
    await ctx.store.set(`token:${token}`, JSON.stringify({ user, task: bound.task, ended: true }), ctx.retentionMs);
    await taskEnded(ctx, user, token);
  }
  return json(200, { code: 200, msg: "received" });
}

/** The record query of each task family: its path and the name of its task id parameter. */
const RECORDS = new Map(
  ROUTES.filter((r) => r.host === "music" && r.method === "GET" && r.family && r.taskIds.length === 1).map((r) => [r.family, r]),
);

/**
 * Writes down as `user`'s the ids a callback of `task` names, once the service's record of that task
 * names them too: the record is read (with the key) only when the callback names an id. Ids the
 * record does not name are left out, and logged (count only). False when the record could not be read.
 * @param {Context} ctx @param {string} user @param {string} family @param {string} task @param {string} text
 */
async function confirmReferences(ctx, user, family, task, text) {
  const named = namedIds(text);
  if (named.length === 0) return true;
  const route = RECORDS.get(family);
  if (!route) {
    ctx.log(`companion: a ${family} callback of task ${task} names ids, and no record query confirms them; none recorded`);
    return true;
  }
  const query = new URLSearchParams({ [route.taskIds[0]]: task });
  let record;
  try {
    const answer = await ctx.upstream.send(`${ctx.baseUrl}${route.path.replace("{svc}", ctx.serviceSegment)}?${query}`, {
      method: "GET",
      headers: { authorization: `Bearer ${ctx.apiKey}`, accept: "application/json" },
    });
    record = await answer.text();
    if (answer.status !== 200) throw new Error(`the record query answered ${answer.status}`);
  } catch (e) {
    const error = /** @type {{ cause?: { code?: string }, message?: string }} */ (e);
    ctx.log(`companion: the record of task ${task} could not be read to confirm its callback: ${error?.cause?.code ?? error?.message ?? e}`);
    return false;
  }
  const confirmed = new Set(namedIds(record));
  const unconfirmed = named.filter((id) => !confirmed.has(id)).length;
  if (unconfirmed > 0) {
    ctx.log(`companion: a callback of task ${task} named ${unconfirmed} id(s) its record does not; not recorded`);
  }
  await recordReferences(ctx, user, record);
  return true;
}
