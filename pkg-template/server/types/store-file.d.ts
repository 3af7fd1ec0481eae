export type CompanionStore = import("./store.js").CompanionStore;
export type MemoryState = import("./store-memory.js").MemoryState;
/**
 * A store kept in the file `path` (created with its folder). Owners, tokens, references, events and
 * tasks in flight survive a restart; request counts do not. Each change is written before the
 * call that made it resolves (writes that come together are one write, through a temporary file
 * renamed over the old one, so a crash leaves the old state or the new, never half of one).
 * @param {{ path: string }} options
 * @returns {CompanionStore}
 */
export declare function fileStore({ path }?: {
    path: string;
}): CompanionStore;
