// Entry for browsers, workers and bundlers: loads the browser build of the .wasm next to this file,
// then exports the API. That build leaves out `parseCallback`'s reading of a body (3.1 KB gzipped),
// which runs where callbacks arrive, on servers: `full.js` (`tunesmith/full`) loads the one with it.
// Top-level await means `import { Client } from "tunesmith"` is ready to use, with no init() call.
import init from "./tunesmith.js";

await init({ module_or_path: new URL("./tunesmith_bg.wasm", import.meta.url) });

export * from "./api.js";
