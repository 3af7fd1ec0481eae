// Each user's events: numbered, kept (a bounded backlog) and published through the store, and
// served to that user's pages as Server-Sent Events. `id:` and `Last-Event-ID` let a page that
// reconnects, to this instance or another, get what it missed and nothing twice.
import { refuse } from "./answers.js";

const encoder = new TextEncoder();

/** Numbers `event`, keeps it in the user's backlog and tells every instance's pages of that user. */
export async function publish(ctx, user, event) {
  const { count: id } = await ctx.store.incr(`seq:${user}`, ctx.retentionMs);
  const line = JSON.stringify({ id, event });
  await ctx.store.push(`events:${user}`, line, ctx.eventBacklog, ctx.retentionMs);
  await ctx.store.publish(`events:${user}`, line);
}

function lastEventId(request, url) {
  const raw = request.headers.get("last-event-id") ?? url.searchParams.get("lastEventId") ?? "0";
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

/** `GET /events[?task=ID]`: the user's events (of one task of theirs, with `task`) as they come. */
export async function eventStream(ctx, user, url, request) {
  const task = url.searchParams.get("task");
  if (task !== null && (await ctx.store.get(`owner:${task}`)) !== user) {
    return refuse(404, "not_found", "no task of yours has this id", { field: "task" });
  }
  let sent = lastEventId(request, url);
  const wanted = (item) => item.id > sent && (task === null || item.event.taskId === task);
  let controller;
  let early = []; // live events that came while the backlog was read
  let unsubscribe = null;
  let heartbeat = null;
  let closed = false;
  const write = (text) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      close();
    }
  };
  const send = (item) => {
    if (!wanted(item)) return;
    sent = item.id;
    write(`id: ${item.id}\nevent: ${item.event.family}\ndata: ${JSON.stringify(item.event)}\n\n`);
  };
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    unsubscribe?.().catch(() => {});
  };
  const stream = new ReadableStream({
    async start(c) {
      controller = c;
      // A page told to reconnect does so after a second; the comment line flushes the headers.
      write("retry: 1000\n: connected\n\n");
      // Subscribed first, then the backlog: an event published in between is in one or the other,
      // and the ids drop the one seen twice.
      unsubscribe = await ctx.store.subscribe(`events:${user}`, (line) => {
        const item = JSON.parse(line);
        if (early) early.push(item);
        else send(item);
      });
      if (closed) return unsubscribe().catch(() => {});
      const backlog = (await ctx.store.list(`events:${user}`)).map((line) => JSON.parse(line));
      for (const item of backlog.sort((a, b) => a.id - b.id)) send(item);
      const pending = early.sort((a, b) => a.id - b.id);
      early = null;
      for (const item of pending) send(item);
      heartbeat = setInterval(() => write(": heartbeat\n\n"), ctx.heartbeatMs);
    },
    cancel() {
      close();
    },
  });
  request.signal?.addEventListener?.("abort", close);
  return new Response(stream, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    },
  });
}
