// The companion on Deno: `deno run --allow-net --allow-env --allow-read main.js` (read: the
// package's .wasm, from node_modules).
import { createCompanion } from "tunesmith/server";

const port = Number(Deno.env.get("PORT") ?? 8000);

const companion = createCompanion({
  apiKey: Deno.env.get("TUNESMITH_API_KEY"),
  baseUrl: Deno.env.get("TUNESMITH_BASE_URL"), // omit both URLs for the real service
  uploadUrl: Deno.env.get("TUNESMITH_UPLOAD_URL"),
  publicUrl: Deno.env.get("PUBLIC_URL") ?? `http://localhost:${port}/tunesmith`,
  // Your own session check: the caller's user id, or null for a 401. This one knows one token.
  authorize: (request) => {
    const token = request.headers.get("authorization")?.replace(/^Bearer /, "");
    return token && token === Deno.env.get("DEMO_SESSION") ? "demo-user" : null;
  },
  allow: ["uploadFile", "uploadBase64", "generate", "addInstrumental", "getTask"],
});

Deno.serve({
  hostname: "127.0.0.1",
  port,
  onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`),
}, companion);
