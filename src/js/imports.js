// The JavaScript the wasm module imports (the `#[wasm_bindgen(module = "/src/js/imports.js")]`
// blocks of settle.rs, driver/transport.rs, watch.rs and uploads/): one file, so that a page loads
// one snippet beside errors.js rather than one per Rust module (each was a request of its own at
// start). Sections: settling Promises, the transport (one attempt, a sleep), the waiters' iterator,
// uploads.
import { TunesmithError } from "./errors.js";

// ---- Settling (settle.rs) ----
// Every Promise the package returns settles, even if the wasm module panics. A panic ends the
// module (wasm cannot unwind), so `panicked`, called as it traps (by `guardExports`; in the test
// builds, by the panic hook just before), rejects each call still pending, and `guard` makes each
// later call throw or reject at once, instead of entering a module that can no longer run: both
// with a TunesmithError of kind "internal". The requests and sleeps in flight end with it.

/** The `[resolve, reject]` of every task's Promise not settled yet, by the task's key (tasks.rs). */
const pending = new Map();
/** The `cancel` of every attempt and sleep not ended yet (see `attempt`, `sleep`). */
const running = new Set();
let stopped = null;

const internal = () => new TunesmithError(stopped, { kind: "internal" });

/** The Promise of the task `key`, tracked until `settleTask` settles it, so that a trap can reject it. */
export function taskPromise(key) {
  return new Promise((resolve, reject) => pending.set(key, [resolve, reject]));
}

/** Resolves (`ok`) or rejects the Promise of the task `key`. */
export function settleTask(key, ok, value) {
  const settle = pending.get(key);
  pending.delete(key);
  settle?.[ok ? 0 : 1](value);
}

/** The module's `wake(key, ok, value)`: how an awaited Promise's outcome goes back (tasks.rs). */
let wake;

export function setWake(f) {
  wake = f;
}

/**
 * Calls `wake(key, ok, value)` once `value` (a Promise, a thenable or a plain value) settles: in a
 * later microtask, never during this call, and never once the module has stopped.
 */
export function whenSettled(value, key) {
  let promise;
  try {
    promise = Promise.resolve(value);
  } catch (error) {
    // A Promise whose `constructor` getter throws: that is its outcome.
    promise = Promise.reject(error);
  }
  // `wake` throws only when the module traps in it, and then `guardExports` has already reported
  // the trap and rejected every pending Promise: an unhandled rejection here would add nothing
  // but, in Node, the end of the process. Caught where it is thrown: no Promise more per await.
  const back = (ok, value) => {
    try {
      if (stopped === null) wake(key, ok, value);
    } catch {}
  };
  promise.then(
    (v) => back(true, v),
    (e) => back(false, e),
  );
}

/** Called as the module stops: by `guardExports` when it traps, or by the panic hook of the test builds. */
export function panicked(message) {
  stopped ??=
    `tunesmith stopped after an internal error (${message}). ` +
    "This is a bug in tunesmith: please report it. Nothing the client was doing will finish; " +
    "reload the page or restart the process to use it again";
  // Also where a developer looks first: the rejections may be caught and dropped.
  console.error(stopped);
  for (const [, reject] of pending.values()) reject(internal());
  pending.clear();
  // Their futures will never run again to end their requests and sleeps: end them here, so that no
  // timer keeps a process alive and no request goes on for nothing.
  for (const cancel of running) cancel();
}

/**
 * The module's exports as the glue calls them, each function wrapped so that a trap stops the
 * module the way `panicked` does. The shipped module is built with `panic=immediate-abort`: a panic
 * (or running out of memory) traps at once, with no hook to run, and the trap reaches JavaScript as
 * a `WebAssembly.RuntimeError` (a stack overflow as a `RangeError`) thrown out of whichever export
 * was running, an entry point or a future woken by a Promise. No other exception leaves an export:
 * every import that can throw is imported `catch`. The export that trapped throws the internal
 * TunesmithError in its place (a future woken by a Promise, through `wake`, has no caller to catch
 * it: `whenSettled` drops it, the trap being reported already). The package's build puts this call
 * in the glue's `__wbg_finalize_init` (xtask/src/package.rs).
 */
export function guardExports(exports) {
  const guarded = {};
  for (const [name, value] of Object.entries(exports)) {
    guarded[name] =
      typeof value !== "function"
        ? value
        : (...args) => {
            try {
              return value(...args);
            } catch (error) {
              if (!(error instanceof WebAssembly.RuntimeError || error instanceof RangeError)) throw error;
              panicked(`${error.name}: ${error.message}; a panic, or out of memory`);
              throw new TunesmithError(stopped, { kind: "internal", cause: error });
            }
          };
  }
  return guarded;
}

/**
 * The text of `bytes` (a view of wasm memory) when they are few and all ASCII, else undefined: the
 * glue reads every string out of the module through this first (xtask/src/package.rs). Property
 * names, codes and URLs are; a loop costs less than a call of `TextDecoder.decode`, which in
 * Chromium is the dearest step of a call's own work.
 */
export function asciiText(bytes) {
  const n = bytes.length;
  if (n > 256) return;
  for (let i = 0; i < n; i++) if (bytes[i] > 127) return;
  return String.fromCharCode.apply(null, bytes);
}

/** Throws the internal error once the module has stopped: every entry point calls it first. */
export function guard() {
  if (stopped !== null) throw internal();
}

// ---- Transport (driver/transport.rs) ----
// One HTTP attempt, whole, in JavaScript: the wasm side makes one call and awaits one Promise,
// instead of some thirty boundary crossings (the AbortController, its listener and timer, the
// init object, the response's status, headers and text) and a Rust closure per await. What the
// attempt means (envelope, retries, errors) stays in wasm; this only moves bytes and reports how
// the attempt ended.

/** The `fetch` of a Client given none: set by the Node entry (node.js), else the runtime's own. */
let runtimeFetch = null;

/** Sets the `fetch` that Clients created without one send with (node.js: undici's pool). */
export function useFetch(fetch) {
  runtimeFetch = fetch;
}

/** The `fetch` a Client created without one sends with: undefined if the runtime has none. */
export function defaultFetch() {
  return runtimeFetch ?? globalThis.fetch;
}

// Timers take at most 2^31 - 1 ms: a `timeoutMs` of 1e308 ("never") must not fire at once.
const timerMs = (ms) => Math.min(Math.max(ms, 0) || 0, 2147483647);

// The attempts' and the backoff sleeps' deadlines share one timer, armed for the earliest. In a page's main thread it is
// left armed when no attempt is in flight (it fires once, finds nothing due, and stops), so that
// sequential calls with the same timeout set no timer and clear none: in Chromium, between real
// requests, `setTimeout` and `clearTimeout` cost an attempt some 20 to 30 µs (calls bench). Elsewhere
// (Node, Deno, Bun, workers) it is cleared once none is left, as each attempt's own timer was: a
// timer left there would keep a process alive, or belong to a request that has ended (workerd).
const deadlines = new Set();
const keepArmed = typeof window === "object" && typeof document === "object";
let alarm;
let alarmAt = Infinity;

function arm(at) {
  clearTimeout(alarm);
  alarmAt = at;
  alarm = setTimeout(ring, timerMs(at - performance.now()));
}

function ring() {
  alarmAt = Infinity;
  const now = performance.now();
  let next = Infinity;
  for (const deadline of deadlines) {
    if (deadline.at <= now) {
      deadlines.delete(deadline);
      deadline.fire();
    } else if (deadline.at < next) next = deadline.at;
  }
  if (next < Infinity) arm(next);
}

/** Calls `fire` in `ms` (at most 2^31 - 1), unless `stop`, the returned function, is called first. */
function after(ms, fire) {
  const deadline = { at: performance.now() + timerMs(ms), fire };
  deadlines.add(deadline);
  if (deadline.at < alarmAt) arm(deadline.at);
  return () => {
    if (deadlines.delete(deadline) && deadlines.size === 0 && !keepArmed) {
      clearTimeout(alarm);
      alarmAt = Infinity;
    }
  };
}

/**
 * Sends one request (a POST with `post`, else a GET) and reads its whole answer within `timeoutMs`:
 * `[answer, cancel]`. The headers
 * are `Authorization: Bearer {key}` (with a key), `Content-Type: application/json` (with `json`),
 * then the client's `headers` and the call's `extra` (objects, or undefined), a later one replacing
 * an earlier one of the same name. `answer` never rejects; it resolves with `[status, body (parsed
 * JSON, else its text), header]`, `header(name)` reading a response header (the wasm side reads
 * them only from an error, through `readHeader`), or with `["abort" | "timeout" | "network",
 * cause]`: the caller's abort wins over the timer. `cancel()` clears the timer and the listener on the caller's signal,
 * and aborts a request still in flight (a dropped Rust future leaves nothing running); the wasm
 * side calls it whichever way the attempt ends. With `report` (a `progressOf` function) and
 * XMLHttpRequest at hand, the body goes through XHR, the only browser API that reports upload
 * progress; otherwise through `fetch` (the caller's, or the global one).
 */
export function attempt(fetch, post, url, key, json, base, extra, body, timeoutMs, signal, report) {
  const method = post ? "POST" : "GET";
  // No prototype: a header named `__proto__` is copied like any other (`Object.assign` sets it).
  const headers = Object.create(null);
  if (key !== undefined) headers.Authorization = "Bearer " + key;
  if (json) headers["Content-Type"] = "application/json";
  if (base) Object.assign(headers, base);
  if (extra) Object.assign(headers, extra);
  const xhr = report && typeof XMLHttpRequest === "function" ? new XMLHttpRequest() : null;
  const controller = xhr ? null : new AbortController();
  let timedOut = false;
  let answered = false;
  // The attempt's one outcome: the first `settle` wins (a Promise resolves once), whichever of the
  // answer, the caller's abort, the timer or a failure comes first. The abort and the timer settle
  // it themselves, so that a `fetch` that ignores `init.signal` (some polyfills and test doubles)
  // still ends on time, with no listener on the attempt's own signal nor a race of Promises.
  let settle;
  const done = new Promise((resolve) => (settle = resolve));
  const ended = (cause) =>
    settle(signal?.aborted ? ["abort"] : timedOut ? ["timeout"] : ["network", cause]);
  const abort = () => {
    xhr ? xhr.abort() : controller.abort();
    ended();
  };
  // The body parsed where it is (never copied into wasm memory and back); its text if not JSON.
  const answer = (status, text, header) => {
    answered = true;
    let body;
    if (typeof text === "string") {
      body = text;
      try {
        body = JSON.parse(text);
      } catch {}
    }
    settle([typeof status === "number" ? status : 0, body, header]);
  };
  const stopTimer = xhr ? null : after(timeoutMs, () => ((timedOut = true), abort()));
  signal?.addEventListener("abort", abort);
  const cancel = () => {
    running.delete(cancel);
    stopTimer?.();
    signal?.removeEventListener("abort", abort);
    if (!answered) xhr ? xhr.readyState !== 4 && xhr.abort() : controller.abort();
  };
  running.add(cancel);
  if (signal?.aborted) return [Promise.resolve(["abort"]), cancel];
  try {
    if (xhr) {
      xhr.open(method, url);
      for (const name in headers) xhr.setRequestHeader(name, headers[name]);
      // XHR's own timer covers the whole exchange, upload included.
      xhr.timeout = timerMs(timeoutMs) || 1;
      xhr.onload = () =>
        answer(xhr.status, xhr.responseText, (n) => {
          try {
            return xhr.getResponseHeader(n) ?? undefined;
          } catch {}
        });
      xhr.onerror = () => ended(new Error("XMLHttpRequest failed (connection refused or reset, DNS, CORS, offline)"));
      xhr.onabort = () => ended();
      xhr.ontimeout = () => settle(["timeout"]);
      xhr.upload.onprogress = (e) => e.lengthComputable && e.total > 0 && report(e.loaded, e.total);
      xhr.send(body);
    } else {
      const init = { method, headers, signal: controller.signal };
      if (body !== null) init.body = body;
      // A caller's `fetch` that throws, returns a hostile thenable or a response whose getters
      // throw ends the attempt as a network failure. The text's Promise is not returned from the
      // first handler (adopting it would cost two turns of the microtask queue and a Promise).
      Promise.resolve(fetch.call(globalThis, url, init)).then((response) => {
        try {
          const status = response.status;
          // The headers are read only if the wasm side asks (an error's request id, Retry-After).
          const header = (name) => {
            try {
              const value = response.headers.get(name);
              return typeof value === "string" ? value : undefined;
            } catch {}
          };
          Promise.resolve(response.text()).then((text) => answer(status, text, header), ended);
        } catch (error) {
          ended(error);
        }
      }, ended);
    }
  } catch (error) {
    ended(error);
  }
  return [done, cancel];
}

/**
 * `text` with the client's `key` cut out (attempts.rs), in every spelling an echo of the
 * Authorization header may give it, as the companion does (server/secrets.js): as it is or
 * URL-encoded, in any case, and in Base64 (standard or URL alphabet) at each of the three offsets
 * it may start at in a 3-byte group.
 */
export function scrub(text, key) {
  const bytes = new TextEncoder().encode(key);
  const spellings = [key, encodeURIComponent(key)];
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const based = btoa(String.fromCharCode(...padded)).slice(Math.ceil((offset * 4) / 3), Math.floor(((offset + bytes.length) * 4) / 3));
    if (based.length >= 8) spellings.push(based, based.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  const escaped = spellings.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return text.replace(new RegExp(escaped.join("|"), "gi"), "[redacted]");
}

/** The response header `name` of an answer of `attempt` (its `header`), or undefined. */
export function readHeader(header, name) {
  return header(name);
}

/** `[slept, cancel]`: `slept` resolves `true` after `ms`, `false` at once if `signal` fires. */
export function sleep(ms, signal) {
  let done;
  const slept = new Promise((resolve) => (done = resolve));
  const stop = () => done(false);
  const stopTimer = after(ms, () => done(true));
  if (signal?.aborted) stop();
  signal?.addEventListener("abort", stop);
  const cancel = () => {
    running.delete(cancel);
    stopTimer();
    signal?.removeEventListener("abort", stop);
  };
  running.add(cancel);
  return [slept, cancel];
}

// ---- Property access (js.rs) ----
// One crossing per property, the key passed as wasm's own string: through js-sys, a read took
// four (two type checks, a JS string made for the key, `Reflect.get`) and a write two.

/** `obj[key]` of an object or a function, `undefined` of anything else. A getter or a Proxy trap
 * that throws passes its exception on: the wasm side imports this `catch`. */
export function read(obj, key) {
  return obj !== null && (typeof obj === "object" || typeof obj === "function") ? obj[key] : undefined;
}

/** `obj[key] = value`, on an object the crate made or copied; it never throws into wasm. */
export function write(obj, key, value) {
  try {
    obj[key] = value;
  } catch {}
}

/** An object that is not an array (a revoked Proxy, whose check throws, is not one). */
export function isRecord(v) {
  try {
    return typeof v === "object" && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

/** The `[key, value]` pairs of `obj`'s own keys holding a `_` (snake_case ones), for renaming.
 * A loop, not `Object.entries(obj).filter(...)`: the service answers in camelCase, so most tracks
 * have no such key, and no pair is made for the keys that are kept. */
export function snakeEntries(obj) {
  const found = [];
  for (const key in obj) if (key.includes("_") && Object.hasOwn(obj, key)) found.push([key, obj[key]]);
  return found;
}

/**
 * The time fields of `obj` (a plain copy the crate made) among `keys` (normalize.rs's list, as
 * one comma-separated text): `[mask, value...]`, bit `i` of `mask` set for each key `keys[i]` holding a number or a
 * string, that key's value following in order. One crossing where reading each key took three
 * (the read, then two checks of its type), for fields that are mostly absent.
 */
export function timeFields(obj, keys) {
  // The module passes the same JS string every time: the list is split once.
  if (keys !== timeKeys) timeList = (timeKeys = keys).split(",");
  const found = [0];
  for (let i = 0; i < timeList.length; i++) {
    const value = obj[timeList[i]];
    if (typeof value === "number" || typeof value === "string") {
      found[0] |= 1 << i;
      found.push(value);
    }
  }
  return found;
}
let timeKeys, timeList;

// ---- Waiters (watch.rs) ----
// The async iterator of `watchTask`, around a `step` function from the wasm side that returns a
// Promise of `{ value, done }`. Calls are queued, so `step` never runs twice at once, and the
// iterator is its own async iterable (`for await (const record of client.watchTask(id))`).
export function asyncIterator(step, close) {
  let tail = Promise.resolve();
  let finished = false;
  const end = (value) => ({ value, done: true });
  // However the watch ends (its last record, an error, `return()`), `close` runs once: the wasm
  // side drops its poll, and the listener on the caller's signal goes.
  const stop = () => {
    if (!finished) {
      finished = true;
      close();
    }
  };
  return {
    next() {
      const result = tail.then(() =>
        finished
          ? end(undefined)
          : step().then(
              (r) => {
                if (r.done) stop();
                return r;
              },
              (e) => {
                stop();
                throw e;
              },
            ),
      );
      tail = result.catch(() => {});
      return result;
    },
    // `break` in a for-await loop lands here: stop polling and let the wasm side drop its state.
    return(value) {
      stop();
      return Promise.resolve(end(value));
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/**
 * `[signal, stop]` of the watch's own AbortController, which `user` (the caller's signal, if any)
 * also fires: closing the iterator calls `stop`, aborting a query or sleep in flight; the listener
 * on `user` goes with it. `undefined` in a runtime without AbortController.
 */
export function stopper(user) {
  if (typeof AbortController !== "function") return;
  const controller = new AbortController();
  const stop = () => {
    user?.removeEventListener("abort", stop);
    controller.abort();
  };
  if (user?.aborted) stop();
  else user?.addEventListener("abort", stop);
  return [controller.signal, stop];
}

// ---- Uploads (uploads/) ----
// The value-level work of `uploadFile` and `uploadBase64` (src/uploads/), in JavaScript: reading a
// Blob or a byte view, measuring Base64 text, encoding bytes, and putting the body together. The
// wasm side keeps the decisions (options, the protocol's rules, types, limits, errors, sending).
// Through web-sys and js-sys this cost the module and its glue about 3.7 KB gzipped (Rust futures,
// one import per Blob, regex, string and FormData method); here it is about 1.1 KB. None of these
// functions throws: a value that cannot be read is `undefined`, a Promise that rejects, or a code.

/** `[size, own name or "", own type or ""]` of a File or Blob; `undefined` for anything else. */
export function blobFacts(file) {
  try {
    // A Proxy of a Blob passes `instanceof` but its getters may throw: read under try.
    if (file instanceof Blob && typeof file.size === "number") {
      const { name, type } = file;
      return [file.size, typeof name === "string" ? name : "", typeof type === "string" ? type : ""];
    }
  } catch {}
}

/** The bytes of `blob`, or of its first `end` bytes, as a Uint8Array (a Promise). */
export async function readBlob(blob, end) {
  return new Uint8Array(await (end === undefined ? blob : blob.slice(0, end)).arrayBuffer());
}

/** The bytes of an ArrayBuffer or of a view on one (Uint8Array, Buffer, DataView...), not copied. */
export function bytesOf(data) {
  try {
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  } catch {}
}

/**
 * Base64 text or a data URL of it, checked without decoding it: `[payload without whitespace,
 * the data URL's prefix up to its comma or "", its first bytes (for sniffing a type) or
 * undefined]`, or what is wrong: 1 a `data:` text not of the form `data:<mime>;base64,<data>` with
 * its comma in the first 512 characters, 2 nothing to upload, 3 not Base64 (standard or URL-safe).
 */
export function base64Text(text) {
  let prefix = "";
  if (text.startsWith("data:")) {
    const comma = text.indexOf(",");
    prefix = text.slice(0, comma + 1);
    if (comma < 0 || comma > 512 || !prefix.endsWith(";base64,")) return 1;
    text = text.slice(comma + 1);
  }
  if (/\s/.test(text)) text = text.replace(/\s+/g, "");
  if (!text) return 2;
  if (!/^(?:[A-Za-z0-9+/]+|[A-Za-z0-9_-]+)={0,2}$/.test(text)) return 3;
  let head;
  try {
    // URL-safe Base64 makes atob throw: its type is then the service's to sniff.
    head = Uint8Array.from(atob(text.slice(0, Math.min(text.length, 64) & ~3)), (c) => c.charCodeAt(0));
  } catch {}
  return [text, prefix, head];
}

/**
 * Standard, padded Base64 of `bytes`, by the fastest encoder the runtime has: `toBase64`
 * (Chromium 140+, Firefox 133+, Safari 18.2+), Node's `Buffer` (Node 20 has no `toBase64`), else
 * `btoa` over chunks of a multiple of 3 bytes, so that their texts join into one.
 */
export function toBase64(bytes) {
  try {
    if (typeof bytes.toBase64 === "function") return bytes.toBase64();
    if (typeof Buffer === "function") return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64");
    let text = "";
    for (let i = 0; i < bytes.length; i += 24576) {
      text += btoa(String.fromCharCode.apply(null, bytes.subarray(i, i + 24576)));
    }
    return text;
  } catch {}
}

/**
 * The JSON body of a Base64 upload, put together as text: `JSON.stringify` would scan megabytes of
 * Base64 for characters to escape (about 45 ms for 10 MB in Chromium, more than encoding it).
 * `data` is Base64 and `mime` a checked type, neither needing escapes; `fields` holds strings.
 */
export function base64Body(mime, data, fields) {
  const rest = JSON.stringify(fields);
  const url = mime ? `data:${mime};base64,${data}` : data;
  return `{"base64Data":"${url}"${rest.length > 2 ? "," + rest.slice(1) : "}"}`;
}

/** A FormData of the fields (strings), then the file under `name`; `undefined` if there is none. */
export function formOf(fields, blob, name) {
  try {
    const form = new FormData();
    for (const key of ["uploadPath", "fileName"]) if (typeof fields[key] === "string") form.append(key, fields[key]);
    // Last, so that the progress reported is the file's bytes.
    form.append("file", blob, name);
    return form;
  } catch {}
}

/**
 * The `onProgress` of one upload call: `report(sent, bodyTotal)` scales the body's bytes (the file
 * plus a little framing: multipart headers, or the JSON and data-URL prefix) to the file's own
 * size, which is what the caller knows and shows. Shared by every attempt of the call, so a retry
 * never makes the count go backwards; `report(1, 1)` is the last event, `loaded == total`.
 */
export function progressOf(callback, total) {
  let shown = 0;
  return (sent, bodyTotal) => {
    const loaded = Math.min(Math.floor((sent / bodyTotal) * total), total);
    if (loaded > shown) {
      shown = loaded;
      try {
        callback({ loaded, total });
      } catch {
        // A throwing progress callback is a bug of the page's UI: it must not fail the upload.
      }
    }
  };
}
