// README section "Companion server": the server that holds the key, and a client in the page that
// gets every stage pushed. Run by readme-examples.test.mjs.
import { Client } from "tunesmith";

const token = "s3cr3t-session-token"; // the session your app gave the page when it signed in

// README:companion-server:start
import { createServer } from "node:http";
import { createCompanion, toNodeListener } from "tunesmith/server";

const PORT = Number(process.env.PORT ?? 3000);
// Your app's sessions (session token → user id); here one, for the example.
const sessions = new Map([["s3cr3t-session-token", "user-42"]]);

const companion = createCompanion({
  apiKey: process.env.TUNESMITH_API_KEY ?? "", // stays on the server; a missing key throws here
  baseUrl: process.env.TUNESMITH_BASE_URL, // omit both URLs for the real service
  uploadUrl: process.env.TUNESMITH_UPLOAD_URL,
  publicUrl: `http://localhost:${PORT}/tunesmith`, // where pages and the service's callbacks reach it
  // Your own session check: the caller's user id, or null for a 401.
  authorize: (request) => sessions.get(request.headers.get("x-session") ?? "") ?? null,
  allow: ["uploadFile", "generate", "addInstrumental", "getTask"],
  limits: { requestsPerWindow: 60, windowMs: 60_000, tasksInFlight: 3 },
  origins: ["https://app.example.com"], // pages on other origins (CORS)
});
const server = createServer(toNodeListener(companion)).listen(PORT);
// README:companion-server:end

// README:companion-page:start
// In the page: no key. The stages are pushed by the companion, not polled.
const client = new Client({
  companionUrl: `http://localhost:${PORT}/tunesmith`,
  headers: { "x-session": token },
});
const task = await client.generate(
  { customMode: false, instrumental: true, model: "V4_5", prompt: "lo-fi beat for studying" },
  { wait: { onProgress: (t) => console.log("stage:", t.stage) } },
);
console.log(task.tracks.length, "tracks");
// README:companion-page:end

server.closeAllConnections();
server.close();
await companion.close();
