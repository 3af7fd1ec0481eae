// Each user's events: numbered (ids only grow), kept (a bounded backlog) and published through the
// store, and served to that user's pages as Server-Sent Events. `id:` and `Last-Event-ID` let a page
// that reconnects, to this instance or another, get what it missed and nothing twice. A stream is
// written as its page reads it: the backlog a page at a time from the store, live events through a
// short queue (a page that falls behind reads them from the backlog instead), and a page that reads
// nothing for two heartbeats is let go.
import { refuse } from "./answers.js";
import { checkRate, streamOpened } from "./limits.js";

/** @typedef {import("./options.js").Context} Context */
/** @typedef {{ id: number, taskId: string | null, family: string, data: string }} Item */

const encoder = new TextEncoder();
/** Backlog items read from the store at once. */
const PAGE = 64;
/** A page is read from this many items before where the last one ended: the list may have moved
 * (new items at its end push old ones out of its start) in between. */
const OVERLAP = 16;
/** Live events queued for a page that is not reading; past this, it reads them from the backlog. */
const MAX_QUEUED = 64;
/** Heartbeats in a row without a read before a stream is let go. */
const MAX_STALLS = 2;

/**
 * Numbers `event`, keeps it in the user's backlog and tells every instance's pages of that user.
 * @param {Context} ctx @param {string} user @param {Record<string, unknown>} event
 */
export async function publish(ctx, user, event) {
  return ctx.store.append(`events:${user}`, JSON.stringify(event), ctx.eventBacklog, ctx.retentionMs);
}

/** `"<id> <json>"`, as the store keeps and publishes it. @param {string} line @returns {Item} */
function item(line) {
  const at = line.indexOf(" ");
  const data = line.slice(at + 1);
  const event = JSON.parse(data);
  return { id: Number(line.slice(0, at)), taskId: event.taskId ?? null, family: String(event.family), data };
}

/** @param {Request} request @param {URL} url */
function lastEventId(request, url) {
  const raw = request.headers.get("last-event-id") ?? url.searchParams.get("lastEventId") ?? "0";
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

/**
 * `GET /events[?task=ID]`: the user's events (of one task of theirs, with `task`) as they come.
 * @param {Context} ctx @param {string} user @param {URL} url @param {Request} request
 * @returns {Promise<import("./answers.js").Reply>}
 */
export async function eventStream(ctx, user, url, request) {
  const rate = await checkRate(ctx, user);
  if (rate) return rate;
  const task = url.searchParams.get("task");
  if (task !== null && (await ctx.store.get(`owner:${task}`)) !== user) {
    return refuse(404, "not_found", "no task of yours has this id: it is unknown here, or another user's", { field: "task" });
  }
  const slot = streamOpened(ctx, user);
  if ("refusal" in slot) return slot.refusal;
  const key = `events:${user}`;
  let seen = lastEventId(request, url); // the last id handled (sent, or skipped as another task's)
  let live = false; // false: reading the backlog; true: sending live events as they come
  let dropped = false; // live events were dropped while reading the backlog: read it once more
  let at = 0; // where the next backlog page starts
  /** @type {Item[]} */
  let queue = [];
  let closed = false;
  let stalls = 0;
  let beat = false;
  let reading = false;
  /** @type {(() => void) | null} */
  let wake = null;
  /** @type {ReadableStreamDefaultController<Uint8Array> | null} */
  let controller = null;

  /** @param {string} line */
  const onLine = (line) => {
    if (closed) return;
    queue.push(item(line));
    if (queue.length > MAX_QUEUED) {
      // The page is behind: these are in the backlog, read from there when it reads again.
      queue = [];
      if (live) live = false;
      else dropped = true;
    }
    wake?.();
  };
  /** @type {() => Promise<void>} */
  let unsubscribe;
  try {
    unsubscribe = await ctx.store.subscribe(key, onLine);
  } catch (e) {
    slot.done();
    throw e;
  }

  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    slot.done();
    unsubscribe().catch(() => {});
    wake?.();
  };
  const heartbeat = setInterval(() => {
    if (reading) {
      stalls = 0;
      beat = true;
      wake?.();
    } else if (++stalls >= MAX_STALLS) {
      // Nothing read for two heartbeats: the page is gone or will not read; it reconnects with
      // Last-Event-ID if it is still there.
      close();
      controller?.error(new Error("the page read nothing for two heartbeats"));
    }
  }, ctx.heartbeatMs);

  /** The events of `items` this page wants, as SSE text; advances `seen`. @param {Item[]} items */
  const render = (items) => {
    let text = "";
    for (const i of items) {
      if (i.id <= seen) continue;
      seen = i.id;
      if (task === null || i.taskId === task) text += `id: ${i.id}\nevent: ${i.family}\ndata: ${i.data}\n\n`;
    }
    return text;
  };

  /** The next page of the backlog after `seen`, as SSE text; "" at its end. */
  const nextPage = async () => {
    for (;;) {
      const start = Math.max(0, at - OVERLAP);
      const lines = await ctx.store.range(key, start, start + PAGE - 1);
      const items = lines.map(item);
      if (start > 0 && items.length > 0 && items[0].id > seen) {
        // The list moved more than the overlap since the last page: start again from its head.
        at = 0;
        continue;
      }
      at = start + items.length;
      const text = render(items);
      if (text || items.length < PAGE) return text;
    }
  };

  /** The next text to send: backlog, then live events and heartbeats, as they come. */
  const next = async () => {
    for (;;) {
      if (closed) return "";
      if (!live) {
        const text = await nextPage();
        if (text) return text;
        if (dropped) {
          dropped = false;
          continue;
        }
        live = true;
      }
      if (queue.length > 0) {
        const text = render(queue.splice(0));
        if (text) return text;
        continue;
      }
      if (beat) {
        beat = false;
        return ": heartbeat\n\n";
      }
      await new Promise((resolve) => (wake = () => resolve(undefined)));
      wake = null;
    }
  };

  const stream = new ReadableStream(
    {
      start(c) {
        controller = c;
        // A page told to reconnect does so after a second; the comment line flushes the headers.
        c.enqueue(encoder.encode("retry: 1000\n: connected\n\n"));
      },
      async pull(c) {
        reading = true;
        stalls = 0;
        try {
          const text = await next();
          if (!closed) return c.enqueue(encoder.encode(text));
          // Cancelled, or let go: a stream cancelled or errored already takes no close.
          try {
            c.close();
          } catch {}
        } catch (e) {
          close();
          c.error(e);
        } finally {
          reading = false;
        }
      },
      cancel() {
        close();
      },
    },
    { highWaterMark: 0 },
  );
  request.signal?.addEventListener?.("abort", close);
  return {
    status: 200,
    body: stream,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
      "x-content-type-options": "nosniff",
    },
  };
}
