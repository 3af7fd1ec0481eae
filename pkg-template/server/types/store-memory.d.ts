export type CompanionStore = import("./store.js").CompanionStore;
export type MemoryState = {
    values: Map<string, {
        value: string | number;
        expires: number;
    }>;
    lists: Map<string, {
        items: string[];
        expires: number;
    }>;
    /**
     * member -> expiry time
     */
    sets: Map<string, Map<string, number>>;
};
/** @typedef {import("./store.js").CompanionStore} CompanionStore */
/**
 * The state of a memory store, as `fileStore` writes it to disk and reads it back.
 * @typedef {object} MemoryState
 * @property {Map<string, { value: string | number, expires: number }>} values
 * @property {Map<string, { items: string[], expires: number }>} lists
 * @property {Map<string, Map<string, number>>} sets member -> expiry time
 */
/**
 * A store in memory. Every method is async, as a networked store's are, so that the companion uses
 * all stores the same way; each runs in one step of this process, so counting and adding are
 * atomic. Keys expire lazily (when read) and in a sweep once a minute.
 * @returns {CompanionStore}
 */
export declare function memoryStore(): CompanionStore;
/**
 * A memory store and its state. `changed` is called after every change (`fileStore` saves then),
 * and what it returns is awaited by the change's caller.
 * @param {MemoryState} [state]
 * @param {() => Promise<void> | void} [changed]
 * @returns {{ store: CompanionStore & { close(): Promise<void> }, state: MemoryState }}
 */
export declare function memoryState(state?: MemoryState, changed?: () => Promise<void> | void): {
    store: CompanionStore & {
        close(): Promise<void>;
    };
    state: MemoryState;
};
