// `tunesmith/server`: the companion server, which keeps the key on the server and brings the
// service's callbacks to the page. Plain ES modules over Web-standard Request and Response: Node,
// Deno, Bun, Workers and Next route handlers.
export { createCompanion } from "./companion.js";
export { toNodeListener } from "./node.js";
export { memoryStore } from "./store-memory.js";
export { fileStore } from "./store-file.js";
export { redisStore } from "./store-redis.js";
export {
  DEFAULT_ALLOW,
  DEFAULT_BASE_URL,
  DEFAULT_LIMITS,
  DEFAULT_UPLOAD_URL,
  DEFAULTS,
  NOT_ALLOWED_BY_DEFAULT,
} from "./options.js";

/** @typedef {import("./options.js").CompanionOptions} CompanionOptions */
/** @typedef {import("./options.js").CompanionLimits} CompanionLimits */
/** @typedef {import("./options.js").CompanionRefusal} CompanionRefusal */
/** @typedef {import("./store.js").CompanionStore} CompanionStore */
/** @typedef {import("./companion.js").CompanionHandler} CompanionHandler */
/** @typedef {import("./routes.js").OperationName} OperationName */
