// `toNodeListener`: the companion (or any Web-standard handler) as a `node:http` request listener.
// Bodies stream both ways with backpressure; a client that goes away cancels the answer's stream
// (which closes an event stream and its subscription). No `node:` import, so the entry stays
// loadable in Workers and browsers.

/** `http.createServer(toNodeListener(handler))`. */
export function toNodeListener(handler) {
  return (req, res) => {
    serve(handler, req, res).catch((e) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end();
      // Only the message: the handler scrubbed what it logs, this line names no request data.
      console.warn(`tunesmith/server: answering failed: ${e?.message ?? e}`);
    });
  };
}

async function serve(handler, req, res) {
  const abort = new AbortController();
  res.on("close", () => abort.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const proto = req.socket.encrypted ? "https" : "http";
  const init = { method: req.method, headers, signal: abort.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = ReadableStream.from(req);
    init.duplex = "half";
  }
  // Mounted under a prefix (`app.use("/tunesmith", ...)`), Express and Connect cut it from `url`
  // and keep the whole path in `originalUrl`, which is what the companion routes on.
  const path = req.originalUrl ?? req.url;
  const response = await handler(new Request(`${proto}://${req.headers.host ?? "localhost"}${path}`, init));
  const out = {};
  for (const [name, value] of response.headers) out[name] = name in out ? `${out[name]}, ${value}` : value;
  res.writeHead(response.status, out);
  if (!response.body) return void res.end();
  // Headers go out at once: an event stream must reach the page before its first event.
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on("close", () => reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!res.write(value)) {
      await new Promise((resolve) => {
        res.once("drain", resolve);
        res.once("close", resolve);
      });
    }
    if (res.destroyed) return void reader.cancel().catch(() => {});
  }
  res.end();
}
