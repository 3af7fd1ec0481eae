// The public API, re-exported once for both entries (index.js, node.js), which differ only in how
// they load the wasm before anything here is called.
import { Client as WasmClient } from "./tunesmith.js";
import { TunesmithError, ValidationError } from "./__ERRORS_SNIPPET__";
import { OPERATION_METHODS } from "./methods.generated.js";

export { CallbackDeduper, parseCallback } from "./tunesmith.js";
export {
  TunesmithError,
  ValidationError,
  ApiError,
  NetworkError,
  TimeoutError,
  AbortError,
  TaskFailedError,
} from "./__ERRORS_SNIPPET__";

const COMPANION = Symbol("companion");

/**
 * The client. With `companionUrl` it talks to a companion server (`tunesmith/server`), which holds
 * the key: requests go to `{companionUrl}/music` and `/upload`, creates need no `callBackUrl` (the
 * companion sets its own), and the waiters follow the task on the companion's event stream
 * (`push.js`, loaded on the first call) instead of polling.
 */
export class Client extends WasmClient {
  constructor(options) {
    let url;
    try {
      url = options?.companionUrl;
    } catch {
      // A hostile options object (a revoked Proxy): the wasm reads it and throws its typed error.
    }
    // Empty, as an environment variable set to nothing gives it, is not set (as `baseUrl`).
    if (url === undefined || url === "") {
      super(options);
      return;
    }
    let apiKey, fetch, headers, rest;
    try {
      ({ apiKey, fetch, headers, ...rest } = options);
    } catch (cause) {
      throw new ValidationError("the Client options could not be read", { field: "options", rule: "type", cause });
    }
    if (typeof url !== "string" || apiKey !== undefined) {
      throw new TunesmithError(
        "`companionUrl` must be the companion's URL, without `apiKey`: the companion adds the key",
        { kind: "configuration" },
      );
    }
    const base = url.replace(/\/+$/, "");
    const send = fetch ?? ((...a) => globalThis.fetch(...a));
    // Cookies go along, so that the companion's `authorize` can read the page's session.
    const withCookies = (input, init) => send(input, { ...init, credentials: "include" });
    super({ ...rest, headers, baseUrl: `${base}/music`, uploadUrl: `${base}/upload`, fetch: withCookies });
    this[COMPANION] = { url: base, headers: headers ?? {}, fetch: withCookies };
  }
}

// The operations' methods, each a call of the module's one entry with the operation's name (an
// export and a glue function per operation would cost the module more than this list).
for (const name of OPERATION_METHODS) {
  Object.defineProperty(WasmClient.prototype, name, {
    value(request, options) {
      return this.__call(name, request, options);
    },
    writable: true,
    configurable: true,
  });
}

/** Whether `self` is a live Client (not another value a method was called on, nor a freed one). */
function isClient(self) {
  try {
    return self instanceof WasmClient && Boolean(self.__wbg_ptr);
  } catch {
    return false;
  }
}

for (const name of Object.getOwnPropertyNames(WasmClient.prototype)) {
  const method = Object.getOwnPropertyDescriptor(WasmClient.prototype, name).value;
  if (typeof method !== "function" || name === "constructor" || name === "free" || name.startsWith("__")) continue;
  Object.defineProperty(Client.prototype, name, {
    value(...args) {
      if (!isClient(this)) {
        const error = new TunesmithError(`${name} must be called on a Client (not on another value, nor on a freed one)`, {
          kind: "configuration",
        });
        if (name === "watchTask") throw error;
        return Promise.reject(error);
      }
      const companion = this[COMPANION];
      if (!companion) return method.apply(this, args);
      const push = import("./push.js");
      if (name === "watchTask") return (async function* () {
        yield* (await push).watch(this, companion, args);
      }).call(this);
      return push.then((p) => p.run(this, companion, name, method, args));
    },
    writable: true,
    configurable: true,
  });
}
