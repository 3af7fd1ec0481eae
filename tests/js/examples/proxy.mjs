// README section "Using it in a browser": a key-adding proxy, and the client that talks to it
// without a key. Run by readme-examples.test.mjs.
import { once } from "node:events";
import { Client } from "tunesmith";

const UPSTREAM = process.env.TUNESMITH_BASE_URL;
// README:proxy:start
import { createServer } from "node:http";

// Your server: forwards /music/* to the service and adds the key, which never reaches the page.
// (Check your own user's session here, and rate-limit per user.)
const proxy = createServer(async (req, res) => {
  const path = req.url ?? "/";
  if (!path.startsWith("/music/")) return res.writeHead(404).end();
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const upstream = await fetch(UPSTREAM + path.slice("/music".length), {
    method: req.method,
    headers: { authorization: `Bearer ${process.env.TUNESMITH_API_KEY}`, "content-type": "application/json" },
    body: req.method === "GET" ? undefined : Buffer.concat(chunks),
  });
  res.writeHead(upstream.status, { "content-type": "application/json" }).end(Buffer.from(await upstream.arrayBuffer()));
});
proxy.listen(8080);
// README:proxy:end
await once(proxy, "listening");

// README:proxy-client:start
// In the page: no key at all, the proxy adds it.
const client = new Client({ baseUrl: "http://localhost:8080/music" });
const { credits } = await client.getCredits();
// README:proxy-client:end
console.log("credits through the proxy:", credits);

proxy.close();
