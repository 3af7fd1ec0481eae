// Entry for Node: the same .wasm, read from disk (Node's fetch cannot load file: URLs).
import { readFile } from "node:fs/promises";
import { initSync, Client, CallbackDeduper, parseCallback } from "./tunesmith.js";

initSync({ module: await readFile(new URL("./tunesmith_bg.wasm", import.meta.url)) });

export { Client, CallbackDeduper, parseCallback };
export {
  TunesmithError,
  ValidationError,
  ApiError,
  NetworkError,
  TimeoutError,
  AbortError,
  TaskFailedError,
} from "./__ERRORS_SNIPPET__";
