// One attempt's wait on `fetch` and on the body read (src/driver/transport.rs), in JavaScript: a
// race in Rust took a closure, a bound function and three Promises per wait, on every call.

/**
 * Resolves with what `promise` resolves with, or with `signal` itself once the attempt's signal
 * fires first (a `fetch` that ignores `init.signal` still settles at the timeout or the caller's
 * abort). It resolves rather than rejects on the signal: an attempt that ended before the wait
 * must leave no unhandled rejection when its guard aborts. The listener goes with the wait.
 */
export function untilSignal(promise, signal) {
  return new Promise((resolve, reject) => {
    // In the executor: a hostile thenable from a caller's `fetch` rejects instead of throwing.
    const fired = () => resolve(signal);
    if (signal.aborted) return fired();
    signal.addEventListener("abort", fired);
    const done = () => signal.removeEventListener("abort", fired);
    Promise.resolve(promise).then(
      (value) => {
        done();
        resolve(value);
      },
      (error) => {
        done();
        reject(error);
      },
    );
  });
}
