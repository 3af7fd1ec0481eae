export { createCompanion } from "./companion.js";
export { toNodeListener } from "./node.js";
export { memoryStore } from "./store-memory.js";
export { fileStore } from "./store-file.js";
export { redisStore } from "./store-redis.js";
export { DEFAULT_ALLOW, DEFAULT_BASE_URL, DEFAULT_LIMITS, DEFAULT_UPLOAD_URL, DEFAULTS, NOT_ALLOWED_BY_DEFAULT, } from "./options.js";
export type CompanionOptions = import("./options.js").CompanionOptions;
export type CompanionLimits = import("./options.js").CompanionLimits;
export type CompanionRefusal = import("./options.js").CompanionRefusal;
export type CompanionStore = import("./store.js").CompanionStore;
export type CompanionHandler = import("./companion.js").CompanionHandler;
export type OperationName = import("./routes.js").OperationName;
/** @typedef {import("./options.js").CompanionOptions} CompanionOptions */
/** @typedef {import("./options.js").CompanionLimits} CompanionLimits */
/** @typedef {import("./options.js").CompanionRefusal} CompanionRefusal */
/** @typedef {import("./store.js").CompanionStore} CompanionStore */
/** @typedef {import("./companion.js").CompanionHandler} CompanionHandler */
/** @typedef {import("./routes.js").OperationName} OperationName */
