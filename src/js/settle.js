// Every Promise the package returns settles, even if the wasm module panics. A panic ends the
// module (wasm cannot unwind), so `panicked`, called by the panic hook just before, rejects each
// call still pending, and `guard` makes each later call throw or reject at once, instead of
// entering a module that can no longer run: both with a TunesmithError of kind "internal".
import { TunesmithError } from "./errors.js";

/** The `reject` of every Promise handed out and not settled yet. */
const pending = new Set();
let stopped = null;

const internal = () => new TunesmithError(stopped, { kind: "internal" });

/** `promise`, tracked until it settles, so that a panic can reject it. */
export function settles(promise) {
  return new Promise((resolve, reject) => {
    pending.add(reject);
    promise.then(
      (value) => {
        pending.delete(reject);
        resolve(value);
      },
      (error) => {
        pending.delete(reject);
        reject(error);
      },
    );
  });
}

/** Called by the panic hook (or the allocator, out of memory) just before the module stops. */
export function panicked(message) {
  stopped ??=
    `tunesmith stopped after an internal error (${message}). ` +
    "This is a bug in tunesmith: please report it. Nothing the client was doing will finish; " +
    "reload the page or restart the process to use it again";
  // Also where a developer looks first: the rejections may be caught and dropped.
  console.error(stopped);
  for (const reject of pending) reject(internal());
  pending.clear();
}

/** Throws the internal error once the module has stopped: every entry point calls it first. */
export function guard() {
  if (stopped !== null) throw internal();
}
