// The public API, re-exported once for both entries (index.js, node.js), which differ only in how
// they load the wasm before anything here is called.
export { Client, CallbackDeduper, parseCallback } from "./tunesmith.js";
export {
  TunesmithError,
  ValidationError,
  ApiError,
  NetworkError,
  TimeoutError,
  AbortError,
  TaskFailedError,
} from "./__ERRORS_SNIPPET__";
