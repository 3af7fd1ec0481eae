// Limits. In the store, so that every instance counts the same: requests per window and tasks in
// flight (counted and taken in one step). In this instance, for what this process holds: requests
// in flight (per user and in all) and open event streams. Over a limit, a 429 (503 for the
// companion-wide ones) that says which limit and when to try again.
import { refuse } from "./answers.js";

/** @typedef {import("./options.js").Context} Context */
/** @typedef {import("./answers.js").Reply} Reply */

/** A task counts as in flight until its final callback, or for at most this long. */
export const TASK_IN_FLIGHT_MS = 60 * 60 * 1000;
/** When the tasks in flight are full, the page is told to look again after this long. */
const TASK_RETRY_AFTER_S = 5;

/** @param {Context} ctx @param {string} user */
export async function checkRate(ctx, user) {
  const { windowMs, requestsPerWindow } = ctx.limits;
  const window = Math.floor(Date.now() / windowMs);
  const { count, ttlMs } = await ctx.store.incr(`rate:${user}:${window}`, windowMs);
  if (count <= requestsPerWindow) return null;
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return refuse(
    429,
    "rate_limited",
    `at most ${requestsPerWindow} requests per ${windowMs / 1000} s through this companion; try again in ${seconds} s`,
    { limit: "requestsPerWindow" },
    { "retry-after": String(seconds) },
  );
}

/**
 * Takes one of the user's task slots for the task whose callback token is `token`, or answers the
 * 429: counting and taking are one step of the store, so concurrent creates cannot all pass.
 * @param {Context} ctx @param {string} user @param {string} token
 */
export async function taskStarted(ctx, user, token) {
  const max = ctx.limits.tasksInFlight;
  if (await ctx.store.addMember(`inflight:${user}`, token, TASK_IN_FLIGHT_MS, max)) return null;
  return refuse(
    429,
    "too_many_tasks",
    `at most ${max} tasks in flight at once; one must finish first (try again in ${TASK_RETRY_AFTER_S} s)`,
    { limit: "tasksInFlight" },
    { "retry-after": String(TASK_RETRY_AFTER_S) },
  );
}

/** @param {Context} ctx @param {string} user @param {string} token */
export async function taskEnded(ctx, user, token) {
  await ctx.store.removeMember(`inflight:${user}`, token);
}

/**
 * Counts a request of `user` in flight on this instance: the function that ends it, or the refusal
 * (429 past the user's `requestsInFlight`, 503 past `totalRequestsInFlight`).
 * @param {Context} ctx @param {string} user
 * @returns {{ done: () => void } | { refusal: Reply }}
 */
export function requestStarted(ctx, user) {
  const { requestsInFlight, totalRequestsInFlight } = ctx.limits;
  const mine = ctx.inFlight.byUser.get(user) ?? 0;
  if (mine >= requestsInFlight) {
    return {
      refusal: refuse(
        429,
        "too_many_requests",
        `at most ${requestsInFlight} of your requests at once through this companion; wait for one to end`,
        { limit: "requestsInFlight" },
        { "retry-after": "1" },
      ),
    };
  }
  if (ctx.inFlight.total >= totalRequestsInFlight) {
    return {
      refusal: refuse(
        503,
        "busy",
        "the companion handles as many requests as it may at once; try again in a moment",
        { limit: "totalRequestsInFlight" },
        { "retry-after": "1" },
      ),
    };
  }
  ctx.inFlight.byUser.set(user, mine + 1);
  ctx.inFlight.total += 1;
  let ended = false;
  return {
    done() {
      if (ended) return;
      ended = true;
      ctx.inFlight.total -= 1;
      const left = (ctx.inFlight.byUser.get(user) ?? 1) - 1;
      if (left > 0) ctx.inFlight.byUser.set(user, left);
      else ctx.inFlight.byUser.delete(user);
    },
  };
}

/**
 * Counts an event stream of `user` open on this instance: the function that closes its count, or
 * the 429 past `eventStreams`.
 * @param {Context} ctx @param {string} user
 * @returns {{ done: () => void } | { refusal: Reply }}
 */
export function streamOpened(ctx, user) {
  const max = ctx.limits.eventStreams;
  const open = ctx.streams.get(user) ?? 0;
  if (open >= max) {
    return {
      refusal: refuse(
        429,
        "too_many_streams",
        `at most ${max} event streams open at once per user; close one (a page needs one)`,
        { limit: "eventStreams" },
        { "retry-after": String(Math.max(1, Math.ceil(ctx.heartbeatMs / 1000))) },
      ),
    };
  }
  ctx.streams.set(user, open + 1);
  let closed = false;
  return {
    done() {
      if (closed) return;
      closed = true;
      const left = (ctx.streams.get(user) ?? 1) - 1;
      if (left > 0) ctx.streams.set(user, left);
      else ctx.streams.delete(user);
    },
  };
}
