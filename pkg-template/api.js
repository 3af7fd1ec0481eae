// The public API, re-exported once for both entries (index.js, node.js), which differ only in how
// they load the wasm before anything here is called.
import { Client as WasmClient, __callbackKey, TunesmithError, ValidationError } from "./tunesmith.js";
import { METHODS } from "./methods.generated.js";

export {
  parseCallback,
  TunesmithError,
  ValidationError,
  ApiError,
  NetworkError,
  TimeoutError,
  AbortError,
  TaskFailedError,
} from "./tunesmith.js";

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

// The operations' and the waiters' methods, each a call of the module's one entry with the method's
// name (an export and a glue function per method would cost the module more than this list).
for (const name of METHODS) {
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

/** The keys of a CallbackDeduper, or null for another value (set by the class's static block). */
let seenOf;

/**
 * Remembers which task stages a callback handler has seen, so that it acts on each once even when
 * the service delivers it again. Bounded: the least recently seen keys are forgotten first (a
 * `Map` keeps insertion order, so delete-then-set moves a key to the back). An event's key (family,
 * task, stage) is the module's, read as `parseCallback` reads a body. Written here rather than as a
 * wasm class: the class's glue and methods cost the module about 1.7 KB gzipped, this some 400 B.
 */
export class CallbackDeduper {
  #seen = new Map();
  #max = 10000;

  /** `new CallbackDeduper()` or `new CallbackDeduper({ maxEntries })` (default 10000). */
  constructor(options) {
    let max;
    try {
      max = Object(options) === options ? options.maxEntries : undefined;
    } catch (cause) {
      throw new ValidationError("the CallbackDeduper options could not be read", { field: "options", rule: "type", cause });
    }
    if (max == null) return;
    if (!Number.isInteger(max) || max < 1 || max > 1e7) {
      throw new ValidationError("`maxEntries` must be a whole number from 1 to 10000000", { field: "maxEntries", rule: "range" });
    }
    this.#max = max;
  }

  /** True the first time this family, task and stage is seen; false for a repeated delivery. */
  isNew(event) {
    const seen = deduper(this, "isNew");
    const key = __callbackKey(event);
    // A repeat counts as recent use, so that a retried delivery keeps its key alive.
    const repeat = seen.delete(key);
    for (const oldest of seen.keys()) {
      if (repeat || seen.size < this.#max) break;
      seen.delete(oldest);
    }
    seen.set(key, true);
    return !repeat;
  }

  /** Forgets an event, so that its next delivery counts as new (when handling it failed). */
  forget(event) {
    return deduper(this, "forget").delete(__callbackKey(event));
  }

  /** How many keys are remembered. */
  get size() {
    return deduper(this, "size").size;
  }

  /** Forgets every key. Kept from when this class lived in wasm memory, which `free` released. */
  free() {
    deduper(this, "free").clear();
  }

  static {
    seenOf = (self) => (Object(self) === self && #seen in self ? self.#seen : null);
  }
}

/** The keys of `self`, a CallbackDeduper; a typed error for another value a method was called on. */
function deduper(self, name) {
  const seen = seenOf(self);
  if (!seen) throw new TunesmithError(`${name} must be called on a CallbackDeduper`, { kind: "configuration" });
  return seen;
}
