// Stand-ins for the service's side of the wire, for what the emulator (faithful by design) never
// does: a service that answers with hostile headers and echoes the key in other spellings, and a
// TCP relay in front of the emulator that counts the connections the companion opens.
import { createServer } from "node:http";
import { createServer as createTcpServer, connect } from "node:net";
import { once } from "node:events";

/**
 * A service whose every answer is `answer(request)`: `{ status, headers, body }`, where `request`
 * is `{ method, url, headers, body }`. Resolves with `{ url, close() }`.
 */
export async function hostileService(answer) {
  const http = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const { status = 200, headers = {}, body: out = "" } = answer({ method: req.method, url: req.url, headers: req.headers, body });
    res.writeHead(status, headers);
    res.end(out);
  });
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  return { url: `http://127.0.0.1:${http.address().port}`, close: () => new Promise((r) => http.close(r)) };
}

/** A TCP relay to `target` (an http URL): `{ url, connections(), open(), close() }`: connections
 * opened in all, and sockets open now (both ends of each connection). */
export async function countingRelay(target) {
  const { hostname, port } = new URL(target);
  let opened = 0;
  const sockets = new Set();
  const tcp = createTcpServer((client) => {
    opened++;
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  tcp.listen(0, "127.0.0.1");
  await once(tcp, "listening");
  return {
    url: `http://127.0.0.1:${tcp.address().port}`,
    connections: () => opened,
    open: () => sockets.size,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => tcp.close(r));
    },
  };
}
