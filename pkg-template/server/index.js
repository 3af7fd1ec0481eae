// `tunesmith/server`: the companion server, which keeps the key on the server and brings the
// service's callbacks to the page. Plain ES modules over Web-standard Request and Response: Node,
// Deno, Bun, Workers and Next route handlers.
export { createCompanion } from "./companion.js";
export { toNodeListener } from "./node.js";
export { memoryStore } from "./store-memory.js";
export { redisStore } from "./store-redis.js";
