// The companion as a Next.js App Router route handler: every method of every path under
// /tunesmith goes to it, as the Web-standard Request it takes.
import { createCompanion } from "tunesmith/server";

// Made at the first request, not when the module loads: `next build` loads every route to collect
// its configuration, on a machine that need not hold the key.
let companion;

function handler(request) {
  companion ??= createCompanion({
    apiKey: process.env.TUNESMITH_API_KEY,
    baseUrl: process.env.TUNESMITH_BASE_URL, // omit both URLs for the real service
    uploadUrl: process.env.TUNESMITH_UPLOAD_URL,
    publicUrl: process.env.PUBLIC_URL, // e.g. https://app.example.com/tunesmith
    // Your own session check: the caller's user id, or null for a 401. This one knows one token.
    authorize: (req) => {
      const token = req.headers.get("authorization")?.replace(/^Bearer /, "");
      return token && token === process.env.DEMO_SESSION ? "demo-user" : null;
    },
    allow: ["uploadFile", "uploadBase64", "generate", "addInstrumental", "getTask"],
  });
  return companion(request);
}

// Answers are per user and event streams stay open: never cached, never prerendered.
export const dynamic = "force-dynamic";
export { handler as GET, handler as POST, handler as OPTIONS };
