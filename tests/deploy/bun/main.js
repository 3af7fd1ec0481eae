// The companion on Bun: `bun main.js`.
import { createCompanion } from "tunesmith/server";

const port = Number(process.env.PORT ?? 3000);

const companion = createCompanion({
  apiKey: process.env.TUNESMITH_API_KEY,
  baseUrl: process.env.TUNESMITH_BASE_URL, // omit both URLs for the real service
  uploadUrl: process.env.TUNESMITH_UPLOAD_URL,
  publicUrl: process.env.PUBLIC_URL ?? `http://localhost:${port}/tunesmith`,
  // Your own session check: the caller's user id, or null for a 401. This one knows one token.
  authorize: (request) => {
    const token = request.headers.get("authorization")?.replace(/^Bearer /, "");
    return token && token === process.env.DEMO_SESSION ? "demo-user" : null;
  },
  allow: ["uploadFile", "uploadBase64", "generate", "addInstrumental", "getTask"],
});

// README:deploy-bun:start
const server = Bun.serve({
  hostname: "127.0.0.1",
  port,
  // Bun closes a connection idle for 10 s; an event stream is quiet for 15 s between heartbeats.
  idleTimeout: 60,
  fetch: companion,
});
// README:deploy-bun:end
console.log(`listening on ${server.url}`);
