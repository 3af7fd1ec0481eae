// The companion as a Next.js App Router route handler: every method of every path under
// /tunesmith goes to it, as the Web-standard Request it takes.
import { createCompanion } from "tunesmith/server";

/** @returns {import("tunesmith/server").CompanionOptions} */
function options() {
  return {
    apiKey: process.env.TUNESMITH_API_KEY ?? "",
    baseUrl: process.env.TUNESMITH_BASE_URL, // omit both URLs for the real service
    uploadUrl: process.env.TUNESMITH_UPLOAD_URL,
    publicUrl: /** @type {string} */ (process.env.PUBLIC_URL), // e.g. https://app.example.com/tunesmith
    // Your own session check: the caller's user id, or null for a 401. This one knows one token.
    authorize: (request) => {
      const token = request.headers.get("authorization")?.replace(/^Bearer /, "");
      return token && token === process.env.DEMO_SESSION ? "demo-user" : null;
    },
    allow: ["uploadFile", "uploadBase64", "generate", "addInstrumental", "getTask"],
  };
}

// README:deploy-next:start
// app/tunesmith/[...path]/route.js. Made at the first request: `next build` loads every route
// to collect its configuration, on a machine that need not hold the key.
let companion;
/** @param {Request} request */
const handler = (request) => (companion ??= createCompanion(options()))(request);

// Answers are per user and event streams stay open: never cached, never prerendered.
export const dynamic = "force-dynamic";
export { handler as GET, handler as POST, handler as OPTIONS };
// README:deploy-next:end
