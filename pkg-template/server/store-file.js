// A store that survives restarts without a server of its own: the memory store's state, written to
// one JSON file as it changes and read back at start. One process only (the demo, a small
// deployment); several instances share a `redisStore`.

/** @typedef {import("./store.js").CompanionStore} CompanionStore */
/** @typedef {import("./store-memory.js").MemoryState} MemoryState */
import { memoryState } from "./store-memory.js";

/** Node's file system, loaded on first use: the module itself stays loadable where there is none. */
const FS = "node:fs/promises";
/** Changes wait this long to be written with the ones that follow them. */
const WRITE_EVERY_MS = 100;

/**
 * A store kept in the file `path` (created with its folder): owners, tokens, references, events and
 * tasks in flight survive a restart. Changes are written together at most `WRITE_EVERY_MS` after
 * the first of them (to a temporary file renamed over the old one, so a crash leaves the old state
 * or the new, never half of one), and at `close()`: a crash loses at most that last moment.
 * @param {{ path: string }} options
 * @returns {CompanionStore}
 */
export function fileStore({ path } = /** @type {{ path: string }} */ ({})) {
  if (typeof path !== "string" || path === "") throw new TypeError("fileStore needs { path }: the file that keeps the state");
  /** @type {Promise<any>} */
  const fs = import(FS);
  /** @type {CompanionStore | null} */
  let inner = null;
  let dirty = false;
  /** @type {Promise<void> | null} */
  let writing = null;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  /** @type {MemoryState} */
  const state = { values: new Map(), lists: new Map(), sets: new Map() };

  /** Writes the state now (after a write under way), with every change made until it starts. */
  const write = () =>
    (writing ??= (async () => {
      try {
        const { writeFile, rename } = await fs;
        while (dirty) {
          dirty = false;
          const text = JSON.stringify({
            values: [...state.values],
            lists: [...state.lists],
            sets: [...state.sets].map(([k, m]) => [k, [...m]]),
          });
          await writeFile(`${path}.tmp`, text);
          await rename(`${path}.tmp`, path);
        }
      } finally {
        writing = null;
      }
    })());
  /** A change: written with the others of the next `WRITE_EVERY_MS`. */
  const changed = () => {
    dirty = true;
    timer ??= setTimeout(() => {
      timer = null;
      write().catch(() => {
        // Kept dirty: the next change (or close) writes it again.
        dirty = true;
      });
    }, WRITE_EVERY_MS);
  };

  const ready = (async () => {
    const { readFile, mkdir } = await fs;
    const folder = path.replace(/[/\\][^/\\]*$/, "");
    if (folder && folder !== path) await mkdir(folder, { recursive: true });
    let text = null;
    try {
      text = await readFile(path, "utf8");
    } catch (e) {
      if (/** @type {{ code?: string }} */ (e).code !== "ENOENT") throw e;
    }
    if (text !== null) {
      const saved = JSON.parse(text);
      for (const [k, v] of saved.values ?? []) state.values.set(k, v);
      for (const [k, v] of saved.lists ?? []) state.lists.set(k, v);
      for (const [k, m] of saved.sets ?? []) state.sets.set(k, new Map(m));
    }
    inner = memoryState(state, changed).store;
    return inner;
  })();

  /**
   * @template {keyof CompanionStore} K
   * @param {K} name
   */
  const method = (name) =>
    /** @type {NonNullable<CompanionStore[K]>} */ (
      /** @type {unknown} */ (
        async (/** @type {any[]} */ ...args) => {
          const store = inner ?? (await ready);
          return /** @type {any} */ (store)[name](...args);
        }
      )
    );

  return {
    get: method("get"),
    set: method("set"),
    setIfAbsent: method("setIfAbsent"),
    delete: method("delete"),
    incr: method("incr"),
    addMember: method("addMember"),
    removeMember: method("removeMember"),
    append: method("append"),
    range: method("range"),
    subscribe: method("subscribe"),
    async close() {
      const store = await ready.catch(() => null);
      await store?.close?.();
      if (timer) clearTimeout(timer);
      timer = null;
      await writing?.catch(() => {});
      if (dirty) await write();
    },
  };
}
