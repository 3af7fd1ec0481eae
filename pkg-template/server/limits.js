// Per-user limits, kept in the store so that every instance counts the same: requests per window
// and tasks in flight. Over a limit, a 429 that says which limit and when to try again.
import { refuse } from "./answers.js";

/** A task counts as in flight until its final callback, or for at most this long. */
const TASK_IN_FLIGHT_MS = 60 * 60 * 1000;
/** When the tasks in flight are full, the page is told to look again after this long. */
const TASK_RETRY_AFTER_S = 5;

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

export async function checkTasksInFlight(ctx, user) {
  const max = ctx.limits.tasksInFlight;
  if ((await ctx.store.countMembers(`inflight:${user}`)) < max) return null;
  return refuse(
    429,
    "too_many_tasks",
    `at most ${max} tasks in flight at once; one must finish first (try again in ${TASK_RETRY_AFTER_S} s)`,
    { limit: "tasksInFlight" },
    { "retry-after": String(TASK_RETRY_AFTER_S) },
  );
}

// A task in flight is named by its callback token: known before the create is sent, and again when
// its final callback arrives.
export async function taskStarted(ctx, user, token) {
  await ctx.store.addMember(`inflight:${user}`, token, TASK_IN_FLIGHT_MS);
}

export async function taskEnded(ctx, user, token) {
  await ctx.store.removeMember(`inflight:${user}`, token);
}
