// Entry for Node: the same .wasm, read from disk (Node's fetch cannot load file: URLs).
import { readFile } from "node:fs/promises";
import { initSync } from "./tunesmith.js";

initSync({ module: await readFile(new URL("./tunesmith_bg.wasm", import.meta.url)) });

export * from "./api.js";
