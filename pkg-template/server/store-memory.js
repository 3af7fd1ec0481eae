// The companion's state in this process: task owners, callback tokens, events, limits. Nothing to
// install; one instance only, and nothing survives a restart (`fileStore` and `redisStore` do).

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
export function memoryStore() {
  return memoryState().store;
}

/**
 * A memory store and its state. `changed` is called after every change (`fileStore` saves then),
 * and what it returns is awaited by the change's caller.
 * @param {MemoryState} [state]
 * @param {() => Promise<void> | void} [changed]
 * @returns {{ store: CompanionStore & { close(): Promise<void> }, state: MemoryState }}
 */
export function memoryState(state = { values: new Map(), lists: new Map(), sets: new Map() }, changed = () => {}) {
  const { values, lists, sets } = state;
  /** @type {Map<string, Set<(message: string) => void>>} */
  const channels = new Map();
  const now = () => Date.now();
  /**
   * @template T
   * @param {Map<string, T & { expires: number }>} map
   * @param {string} key
   */
  const live = (map, key) => {
    const entry = map.get(key);
    if (entry && entry.expires <= now()) {
      map.delete(key);
      return undefined;
    }
    return entry;
  };
  /** @param {string} key */
  const liveMembers = (key) => {
    const members = sets.get(key);
    if (!members) return undefined;
    for (const [m, exp] of members) if (exp <= now()) members.delete(m);
    if (members.size === 0) sets.delete(key);
    return members.size === 0 ? undefined : members;
  };
  const sweep = setInterval(() => {
    for (const key of values.keys()) live(values, key);
    for (const key of lists.keys()) live(lists, key);
    for (const key of sets.keys()) liveMembers(key);
  }, 60_000);
  // A store must not keep a process alive on its own.
  /** @type {{ unref?: () => void }} */ (/** @type {unknown} */ (sweep)).unref?.();
  /** @param {string} key */
  const seqKey = (key) => `${key}\u0000seq`;

  /** @type {CompanionStore & { close(): Promise<void> }} */
  const store = {
    async get(key) {
      const v = live(values, key)?.value;
      return v === undefined ? null : String(v);
    },
    async set(key, value, ttlMs) {
      values.set(key, { value: String(value), expires: now() + ttlMs });
      await changed();
    },
    async setIfAbsent(key, value, ttlMs) {
      if (live(values, key)) return false;
      values.set(key, { value: String(value), expires: now() + ttlMs });
      await changed();
      return true;
    },
    async delete(key) {
      if (values.delete(key)) await changed();
    },
    async incr(key, ttlMs) {
      const entry = live(values, key);
      if (!entry) {
        values.set(key, { value: 1, expires: now() + ttlMs });
        return { count: 1, ttlMs };
      }
      entry.value = Number(entry.value) + 1;
      return { count: entry.value, ttlMs: entry.expires - now() };
    },
    async addMember(key, member, ttlMs, max = Infinity) {
      let members = liveMembers(key);
      if (!members?.has(member) && (members?.size ?? 0) >= max) return false;
      if (!members) sets.set(key, (members = new Map()));
      members.set(member, now() + ttlMs);
      await changed();
      return true;
    },
    async removeMember(key, member) {
      const removed = sets.get(key)?.delete(member) ?? false;
      if (removed) await changed();
      return removed;
    },
    async append(key, value, maxLength, ttlMs) {
      const counter = live(values, seqKey(key));
      const id = Math.max(Number(counter?.value ?? 0) + 1, now());
      values.set(seqKey(key), { value: id, expires: now() + ttlMs });
      let list = live(lists, key);
      if (!list) lists.set(key, (list = { items: [], expires: 0 }));
      const line = `${id} ${value}`;
      list.items.push(line);
      if (list.items.length > maxLength) list.items.splice(0, list.items.length - maxLength);
      list.expires = now() + ttlMs;
      for (const listener of channels.get(key) ?? []) {
        try {
          listener(line);
        } catch {
          // One page's failure is not the publisher's.
        }
      }
      await changed();
      return id;
    },
    async range(key, start, stop) {
      const items = live(lists, key)?.items ?? [];
      const at = (/** @type {number} */ i) => (i < 0 ? Math.max(0, items.length + i) : i);
      return items.slice(at(start), stop < 0 ? items.length + stop + 1 : stop + 1);
    },
    async subscribe(channel, listener) {
      let set = channels.get(channel);
      if (!set) channels.set(channel, (set = new Set()));
      set.add(listener);
      const listeners = set;
      return async () => {
        listeners.delete(listener);
        if (listeners.size === 0 && channels.get(channel) === listeners) channels.delete(channel);
      };
    },
    async close() {
      clearInterval(sweep);
    },
  };
  return { store, state };
}
