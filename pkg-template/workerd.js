// Entry for Cloudflare Workers (the `workerd` condition), with the full .wasm (a Worker receives
// callbacks: `parseCallback`): Wrangler bundles the .wasm as a compiled
// `WebAssembly.Module`, since a Worker can neither compile wasm from bytes nor fetch it from an
// `import.meta.url` (it has none).
import module from "./tunesmith_full_bg.wasm";
import { initSync } from "./tunesmith.js";

initSync({ module });

export * from "./api.js";
