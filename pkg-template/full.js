// Entry `tunesmith/full`, and the `edge-light` condition: `index.js` with the full .wasm, for a
// browser-like runtime that reads callbacks (`parseCallback`): an edge function the service posts
// to, or a page that shows raw callback bodies (the demo's). Pages that only call the service load
// `index.js`, 3.1 KB gzipped smaller.
import init from "./tunesmith.js";

await init({ module_or_path: new URL("./tunesmith_full_bg.wasm", import.meta.url) });

export * from "./api.js";
