// ---- Waiters (hand-written: what the client adds; WaitOptions and the waiters are generated) -----

/** `wait` of a task-creating call: `true` for the default waiter options, or the options. */
export type Wait<T> = true | WaitOptions<T>;

export interface Client {
  /**
   * The states of a music task as an async iterator: yields the record once per change of state
   * (as `onProgress` would receive it), the last one being the completed task; then the iteration
   * ends. A failed task makes the iteration throw `TaskFailedError` (the failed record in its
   * `record`); the deadline throws `TimeoutError`, the signal `AbortError`. `break` stops polling.
   * `onProgress` is not used here.
   *
   * @example
   * for await (const task of client.watchTask(taskId)) {
   *   console.log(task.stage, task.tracks.length);
   * }
   */
  watchTask(taskId: string | TaskCreated, options?: WaitOptions<MusicTask>): AsyncIterableIterator<MusicTask>;
}

// ---- Callbacks --------------------------------------------------------------------------------

/**
 * Parses the body of a callback POST (the parsed object, its JSON text, or its bytes such as a
 * Node `Buffer`) into a typed event, for every documented shape. Throws `ValidationError` (with the
 * offending `field`) for anything else, never a crash. The service may call the same URL several
 * times per task, and again for a delivery it thinks failed: see `CallbackDeduper`.
 *
 * Callbacks arrive at servers: the Node, Deno, Bun and Workers entries have it. The browser entry
 * (`"tunesmith"` in a page or a bundler's browser build) leaves it out to keep pages 3 KB smaller and
 * throws a `TunesmithError` of kind `configuration`; a page or an edge function that reads callbacks
 * imports the package from `"tunesmith/full"` instead (one or the other: a page loads one build).
 */
export function parseCallback(body: unknown): CallbackEvent;

/**
 * Remembers which task stages were handled, so that a receiver acts on each once:
 * the key is family, task id and stage. Bounded: past `maxEntries` (default 10000), the least
 * recently seen keys are forgotten first. Memory lives in the wasm module; one per process is the
 * intended use.
 */
export class CallbackDeduper {
  constructor(options?: { maxEntries?: number });
  /** True the first time this family, task and stage is seen, false for a repeat. Takes an event, or a raw body (parsed first; a malformed one throws `ValidationError`). */
  isNew(event: CallbackEvent | unknown): boolean;
  /** Forgets an event, so that a redelivery counts as new again: call it when handling failed. */
  forget(event: CallbackEvent | unknown): boolean;
  /** Keys remembered. */
  readonly size: number;
  /** Forgets every key (the deduper can be used again). */
  free(): void;
}
