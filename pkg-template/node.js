// Entry for Node, Deno and Bun: the same .wasm, read from disk and compiled synchronously. No
// top-level await, so `require("tunesmith")` loads this module too (Node 20.19+ and 22.12+).
import { readFileSync } from "node:fs";
import { initSync } from "./tunesmith.js";

initSync({ module: readFileSync(new URL("./tunesmith_bg.wasm", import.meta.url)) });

export * from "./api.js";
