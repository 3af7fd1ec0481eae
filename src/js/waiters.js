// The async iterator of `watchTask`, around a `step` function from the wasm side that returns a
// Promise of `{ value, done }`. Calls are queued, so `step` never runs twice at once, and the
// iterator is its own async iterable (`for await (const record of client.watchTask(id))`).
export function asyncIterator(step, close) {
  let tail = Promise.resolve();
  let finished = false;
  const end = (value) => ({ value, done: true });
  return {
    next() {
      const result = tail.then(() =>
        finished
          ? end(undefined)
          : step().then(
              (r) => {
                if (r.done) finished = true;
                return r;
              },
              (e) => {
                finished = true;
                throw e;
              },
            ),
      );
      tail = result.catch(() => {});
      return result;
    },
    // `break` in a for-await loop lands here: stop polling and let the wasm side drop its state.
    return(value) {
      if (!finished) {
        finished = true;
        close();
      }
      return Promise.resolve(end(value));
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
