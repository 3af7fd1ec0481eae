export type CompanionStore = import("./store.js").CompanionStore;
export type MemoryState = import("./store-memory.js").MemoryState;
/**
 * A store kept in the file `path` (created with its folder): owners, tokens, references, events and
 * tasks in flight survive a restart. Each change is written before the call that made it resolves
 * (changes that come together are one write, to a temporary file renamed over the old one, so a
 * crash leaves the old state or the new, never half of one); request counts are written with the
 * next change rather than each on its own.
 * @param {{ path: string }} options
 * @returns {CompanionStore}
 */
export declare function fileStore({ path }?: {
    path: string;
}): CompanionStore;
