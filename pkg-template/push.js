// The waiters of a client with `companionUrl`: they follow the task on the companion's event stream
// (a record query at the start, the record each pushed stage is laid over, and one at the end, for
// the final record), reconnect with Last-Event-ID when the stream drops, and poll through the
// companion when it stays down. Which records are reported (each stage once and in order, the final
// one always) is the follower's (follow.js), shared with the CLI and the MCP server. Loaded on
// first use: a page without a companion never downloads it.
import { Client as WasmClient } from "./tunesmith.js";
import { follow, isFinal, rankOf } from "./follow.js";
import { DEFAULT_MAX_INTERVAL_MS, DEFAULT_WAIT_TIMEOUT_MS, MUSIC_STAGE_STATUS, ROUTES, WAITERS } from "./server/routes.js";

const FAMILY_OF_WAITER = Object.fromEntries(Object.entries(WAITERS).map(([f, w]) => [w, f]));
const QUERY_OF = Object.fromEntries(ROUTES.filter((r) => r.method === "GET" && r.family).map((r) => [r.family, r]));
/** Longest wait for the stream's headers, and for a catch-up query, before trying again. */
const CONNECT_MS = 10_000;
/** After a reconnection, how long the replayed backlog has to show up before a query. */
const REPLAY_MS = 1000;
/** Reconnections in a row before the waiter polls instead. */
const MAX_RECONNECTS = 4;
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * What `onProgress` gets for a pushed event: the family's record (the last one read), with the
 * event's state, stage and data laid over it, so that it has the record's every field.
 */
function merge(family, record, event) {
  const { family: _family, code: _code, msg: _msg, taskId: _taskId, stage, state, ...data } = event;
  const merged = { ...record, state };
  if (family === "music") {
    const tracks = data.tracks ?? record.tracks;
    return { ...merged, stage, status: MUSIC_STAGE_STATUS[stage] ?? record.status, tracks, response: { ...record.response, sunoData: tracks } };
  }
  for (const [key, value] of Object.entries(data)) if (key in record) merged[key] = value;
  return merged;
}

/** The task's record, by its family's status query; null when the query fails. */
function query(client, family, taskId, signal) {
  // The family's status query, naming the task its own way (`taskId`, or recovery's `task_id`).
  const q = QUERY_OF[family];
  return WasmClient.prototype[q.operation]
    .call(client, { [q.taskIds[0] ?? "taskId"]: taskId }, { signal, timeoutMs: CONNECT_MS, maxRetries: 0 })
    .catch(() => null);
}

/** Resolves with what `promise` resolves with, or with null if `ms` pass first. */
function within(promise, ms) {
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, Math.min(ms, MAX_TIMER_MS)), null)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, Math.min(ms, MAX_TIMER_MS));
    signal?.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });

async function* events(body) {
  let buffer = "";
  for await (const chunk of body.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let id = null;
      let data = null;
      for (const line of block.split("\n")) {
        if (line.startsWith("id:")) id = Number(line.slice(3).trim());
        else if (line.startsWith("data:")) data = line.slice(5).trim();
      }
      if (data !== null) yield { id, event: JSON.parse(data) };
    }
  }
}

/**
 * The records of `taskId` from the stream, until its final event, the deadline, the signal, or the
 * stream staying down: the record read at the start, each of the task's events laid over the last
 * record, and each record a stall made it read. The caller's waiter then makes the final query.
 */
async function* pushed(client, companion, family, taskId, { signal, deadline, stallMs }) {
  let current = await query(client, family, taskId, signal);
  // The record read at the start waits for the stream while a stage below it may still be replayed
  // (a read answered after the stage's event, by a slow or loaded companion, comes back past it,
  // the task's end included): it is reported in its place, once the backlog shows its stage, or a
  // later one, or nothing; a final one ends the records, for the waiter's query. No event is of a
  // pending task: a read at rank 1 or below has nothing to wait for.
  let held = current && rankOf(family, current) > 1 ? current : null;
  if (current && !held) yield current;
  let lastId = 0;
  let drops = 0;
  stream: for (;;) {
    if (signal?.aborted || Date.now() >= deadline) break;
    const abort = new AbortController();
    const stop = () => abort.abort();
    signal?.addEventListener("abort", stop, { once: true });
    const until = setTimeout(stop, Math.min(deadline - Date.now(), MAX_TIMER_MS));
    let stalled = false;
    let stall;
    const watch = (ms = stallMs) => {
      clearTimeout(stall);
      stall = setTimeout(() => ((stalled = true), stop()), ms);
    };
    // A companion that takes the connection but never answers counts as a drop.
    const connecting = setTimeout(stop, CONNECT_MS);
    let received;
    try {
      const response = await companion.fetch(`${companion.url}/events?task=${encodeURIComponent(taskId)}`, {
        headers: { ...companion.headers, ...(lastId ? { "last-event-id": String(lastId) } : {}) },
        signal: abort.signal,
      });
      clearTimeout(connecting);
      // Not the caller's task, or not signed in: the waiter's query says so, with a typed error.
      if (response.status >= 400 && response.status < 500) {
        response.body?.cancel();
        break;
      }
      if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
      // After a drop, the backlog replays what was missed at once; if nothing comes (a companion
      // that lost its memory), look once soon rather than after a whole stall.
      watch(drops > 0 ? REPLAY_MS : stallMs);
      drops = 0;
      received = events(response.body);
      const replayed = Date.now() + REPLAY_MS;
      let next = null;
      for (;;) {
        next ??= received.next();
        const step = held ? await within(next, replayed - Date.now()) : await next;
        if (step === null) {
          // The backlog brought nothing below the record read: its stage, now.
          yield (current = held);
          held = null;
          continue;
        }
        next = null;
        if (step.done) break;
        const { id, event } = step.value;
        if (id !== null) lastId = id;
        watch();
        if (event.taskId !== taskId) continue;
        // The final record comes from the waiter's query, which reports a success (a failure ends
        // the wait without a report, as the client's own waiters do).
        if (isFinal(event)) break stream;
        current ??= await query(client, family, taskId, signal);
        if (!current) continue;
        current = merge(family, current, event);
        if (held && rankOf(family, current) >= rankOf(family, held)) {
          // The read's stage, or past it: the read first if this event passed its stage.
          if (rankOf(family, current) > rankOf(family, held)) yield held;
          held = null;
        }
        yield current;
      }
    } catch {
      // A drop: reconnect below (an `onProgress` that threw ends this generator by `return`).
    } finally {
      clearTimeout(connecting);
      clearTimeout(until);
      clearTimeout(stall);
      signal?.removeEventListener("abort", stop);
      abort.abort();
      received?.return().catch(() => {});
    }
    if (stalled) {
      // No event for a while: look once, then listen again from the last event.
      if (held) yield (current = held);
      held = null;
      const record = await query(client, family, taskId, signal);
      if (record && isFinal(record)) break;
      if (record) yield (current = record);
      continue;
    }
    if (++drops > MAX_RECONNECTS) break;
    await sleep(250 * 2 ** drops, signal);
  }
  // The record read, if no event came at its stage or past it: reported before the final one.
  if (held && !signal?.aborted) yield held;
}

/** A waiter on the push stream; the family's own waiter makes the one final query. */
export async function waitPushed(client, companion, family, taskRef, options) {
  const waiter = WasmClient.prototype[WAITERS[family]];
  const taskId = typeof taskRef === "string" ? taskRef : taskRef?.taskId;
  const valid =
    typeof taskId === "string" &&
    taskId.trim() !== "" &&
    (options === undefined || (options !== null && typeof options === "object" && ["undefined", "function"].includes(typeof options.onProgress)));
  // The waiter's own checks and errors for anything it would refuse.
  if (!valid) return waiter.call(client, taskRef, options);
  const opts = options ?? {};
  const timeoutMs = opts.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const deadline = Date.now() + (Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : DEFAULT_WAIT_TIMEOUT_MS);
  const stream = { signal: opts.signal, deadline, stallMs: opts.maxIntervalMs ?? DEFAULT_MAX_INTERVAL_MS };
  // `onProgress` gets the family's record in push mode as when polling (`pending` included, from
  // the first read), each pushed event laid over the last record read.
  return follow({
    family,
    events: () => pushed(client, companion, family, taskId, stream),
    wait: (onProgress) => waiter.call(client, taskId, { ...opts, timeoutMs: Math.max(1, deadline - Date.now()), onProgress }),
    onProgress: (record) => opts.onProgress?.(record),
  });
}

/** A method of a client with `companionUrl`: waiters and creates with `wait` follow the stream. */
export async function run(client, companion, name, method, args) {
  const family = FAMILY_OF_WAITER[name];
  if (family) return waitPushed(client, companion, family, args[0], args[1]);
  const route = ROUTES.find((r) => r.operation === name);
  let [request, options] = args;
  let wait;
  try {
    // The companion sets the callback URL to itself: the page need not invent one.
    if (route?.callback && route.creates && request && typeof request === "object" && !Array.isArray(request) && request[route.callback] === undefined) {
      request = { ...request, [route.callback]: `${companion.url}/callbacks` };
      args = [request, ...args.slice(1)];
    }
    wait = options?.wait ?? request?.wait;
  } catch {
    // Values that throw when read (revoked Proxies...): the client's own typed error.
    return method.apply(client, args);
  }
  if (wait === undefined) return method.apply(client, args);
  // Not a create, or a `wait` the client refuses: the client's own error, before anything is sent.
  if (!route?.creates || !(wait === true || wait === false || wait === null || (typeof wait === "object" && wait))) {
    return method.apply(client, args);
  }
  const strip = (o) => {
    if (!o || typeof o !== "object" || o.wait === undefined) return o;
    const { wait: _, ...rest } = o;
    return rest;
  };
  const created = await method.call(client, strip(request), strip(options));
  if (!wait) return created;
  const waitOptions = wait === true ? { signal: options?.signal } : { signal: options?.signal, ...wait };
  return waitPushed(client, companion, route.family, created, waitOptions);
}

/** `watchTask`: the records `onProgress` would get, as an async iterator. */
export async function* watch(client, companion, [taskRef, options]) {
  const queue = [];
  let wake = null;
  let outcome = null;
  const stop = new AbortController();
  const signal = options?.signal;
  if (signal?.aborted) stop.abort();
  signal?.addEventListener?.("abort", () => stop.abort(), { once: true });
  const opts = { ...(options ?? {}), signal: stop.signal, onProgress: (record) => (queue.push(record), wake?.()) };
  waitPushed(client, companion, "music", taskRef, opts).then(
    () => ((outcome = { done: true }), wake?.()),
    (error) => ((outcome = { error }), wake?.()),
  );
  try {
    for (;;) {
      if (queue.length) {
        yield queue.shift();
        continue;
      }
      if (outcome?.error) throw outcome.error;
      if (outcome) return;
      await new Promise((resolve) => (wake = resolve));
      wake = null;
    }
  } finally {
    stop.abort();
  }
}
