// The service's callbacks, received for the page: each create's `callBackUrl` carries a token that
// only this companion and the service know (the service signs nothing), which names the user and
// the task. A callback is answered at once, deduplicated, and published to that user's pages.
import { parseCallback } from "tunesmith";
import { readCapped, json, refuse } from "./answers.js";
import { MAX_CALLBACK_BYTES } from "./options.js";
import { taskEnded } from "./limits.js";
import { publish } from "./events.js";

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** 256 random bits, URL-safe: the secret of one task's callback URL. */
export async function newToken(ctx, user) {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const token = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  await ctx.store.set(`token:${token}`, JSON.stringify({ user, task: null }), ctx.retentionMs);
  return token;
}

export async function bindTask(ctx, token, user, taskId) {
  await ctx.store.set(`token:${token}`, JSON.stringify({ user, task: taskId }), ctx.retentionMs);
}

export async function receiveCallback(ctx, token, request) {
  if (!TOKEN.test(token)) return refuse(403, "forbidden", "not a callback URL of this companion");
  const binding = JSON.parse((await ctx.store.get(`token:${token}`)) ?? "null");
  if (!binding) return refuse(403, "forbidden", "not a callback URL of this companion");
  const bytes = await readCapped(request.body, MAX_CALLBACK_BYTES);
  if (bytes === null) return refuse(413, "too_large", "a callback is at most 1 MB");
  let event;
  try {
    event = parseCallback(bytes);
  } catch (e) {
    return refuse(400, "validation", `not a callback of the service: ${e.message}`);
  }
  const { user } = binding;
  // The token was made for one task: a body naming another is not the service's.
  if (binding.task !== null && binding.task !== event.taskId) {
    return refuse(403, "forbidden", "this callback URL belongs to another task");
  }
  if (binding.task === null) {
    // The callback overtook the create's answer: the first task named binds the token.
    const owner = await ctx.store.get(`owner:${event.taskId}`);
    if (owner !== null && owner !== user) return refuse(403, "forbidden", "this callback URL belongs to another task");
    await ctx.store.set(`owner:${event.taskId}`, user, ctx.retentionMs);
    await bindTask(ctx, token, user, event.taskId);
  }
  const key = `seen:${event.family}:${event.taskId}:${event.stage}:${event.state}`;
  if (!(await ctx.store.setIfAbsent(key, "1", ctx.retentionMs))) {
    return json(200, { code: 200, msg: "already received" });
  }
  const { raw, ...shaped } = event;
  try {
    await publish(ctx, user, shaped);
  } catch (e) {
    // Not received after all: the service's next delivery must count as new.
    await ctx.store.delete(key).catch(() => {});
    throw e;
  }
  if (event.state === "succeeded" || event.state === "failed") await taskEnded(ctx, user, token);
  return json(200, { code: 200, msg: "received" });
}
