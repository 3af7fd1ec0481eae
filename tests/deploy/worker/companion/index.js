// A Worker serving the companion under /tunesmith: pages call it without a key, and the service's
// callbacks reach them as Server-Sent Events. Secrets: TUNESMITH_API_KEY; vars: PUBLIC_URL (this
// Worker's URL + /tunesmith) and, for the emulator, TUNESMITH_BASE_URL and TUNESMITH_UPLOAD_URL.
import { createCompanion } from "tunesmith/server";

/**
 * @param {Record<string, string | undefined>} env
 * @returns {import("tunesmith/server").CompanionOptions}
 */
function options(env) {
  return {
    apiKey: env.TUNESMITH_API_KEY ?? "",
    baseUrl: env.TUNESMITH_BASE_URL,
    uploadUrl: env.TUNESMITH_UPLOAD_URL,
    publicUrl: /** @type {string} */ (env.PUBLIC_URL),
    // Your own session check: the caller's user id, or null for a 401. This one knows one token.
    authorize: (request) => {
      const token = request.headers.get("authorization")?.replace(/^Bearer /, "");
      return token && token === env.DEMO_SESSION ? "demo-user" : null;
    },
    allow: ["uploadFile", "uploadBase64", "generate", "addInstrumental", "getTask"],
  };
}

// README:deploy-worker:start
// Made at the first request: `env` (secrets, vars) comes with it, and a Worker's global scope may
// not start the timers a companion keeps.
let companion;

export default {
  /** @param {Request} request @param {Record<string, string | undefined>} env */
  fetch: (request, env) => (companion ??= createCompanion(options(env)))(request),
};
// README:deploy-worker:end
