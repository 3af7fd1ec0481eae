// Entry for browsers, workers and bundlers: loads the one .wasm next to this file, then exports the API.
// Top-level await means `import { Client } from "tunesmith"` is ready to use, with no init() call.
import init from "./tunesmith.js";

await init({ module_or_path: new URL("./tunesmith_bg.wasm", import.meta.url) });

export * from "./api.js";
