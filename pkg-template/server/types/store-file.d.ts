export type CompanionStore = import("./store.js").CompanionStore;
export type MemoryState = import("./store-memory.js").MemoryState;
/**
 * A store kept in the file `path` (created with its folder): owners, tokens, references, events and
 * tasks in flight survive a restart. Changes are written together at most `WRITE_EVERY_MS` after
 * the first of them (to a temporary file renamed over the old one, so a crash leaves the old state
 * or the new, never half of one), and at `close()`: a crash loses at most that last moment.
 * @param {{ path: string }} options
 * @returns {CompanionStore}
 */
export declare function fileStore({ path }?: {
    path: string;
}): CompanionStore;
