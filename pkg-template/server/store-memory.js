// The companion's state in this process: task owners, callback tokens, events, limits. Nothing to
// install; one instance only (several instances behind a load balancer need `redisStore`).

/**
 * A store in memory. Every method is async, as a networked store's are, so that the companion uses
 * both the same way. Keys expire lazily (when read) and in a sweep once a minute.
 */
export function memoryStore() {
  const values = new Map(); // key -> { value, expires }
  const lists = new Map(); // key -> { items, expires }
  const sets = new Map(); // key -> Map(member -> expires)
  const channels = new Map(); // channel -> Set(listener)
  const now = () => Date.now();
  const live = (map, key) => {
    const entry = map.get(key);
    if (entry && entry.expires <= now()) {
      map.delete(key);
      return undefined;
    }
    return entry;
  };
  const sweep = setInterval(() => {
    for (const map of [values, lists]) for (const key of map.keys()) live(map, key);
    for (const [key, members] of sets) {
      for (const [m, exp] of members) if (exp <= now()) members.delete(m);
      if (members.size === 0) sets.delete(key);
    }
  }, 60_000);
  // A store must not keep a process alive on its own.
  sweep.unref?.();

  return {
    async get(key) {
      return live(values, key)?.value ?? null;
    },
    async set(key, value, ttlMs) {
      values.set(key, { value, expires: now() + ttlMs });
    },
    async setIfAbsent(key, value, ttlMs) {
      if (live(values, key)) return false;
      values.set(key, { value, expires: now() + ttlMs });
      return true;
    },
    async delete(key) {
      values.delete(key);
    },
    async incr(key, ttlMs) {
      const entry = live(values, key);
      if (!entry) {
        values.set(key, { value: 1, expires: now() + ttlMs });
        return { count: 1, ttlMs };
      }
      entry.value += 1;
      return { count: entry.value, ttlMs: entry.expires - now() };
    },
    async push(key, value, maxLength, ttlMs) {
      let entry = live(lists, key);
      if (!entry) lists.set(key, (entry = { items: [], expires: 0 }));
      entry.items.push(value);
      if (entry.items.length > maxLength) entry.items.splice(0, entry.items.length - maxLength);
      entry.expires = now() + ttlMs;
    },
    async list(key) {
      return [...(live(lists, key)?.items ?? [])];
    },
    async addMember(key, member, ttlMs) {
      let members = sets.get(key);
      if (!members) sets.set(key, (members = new Map()));
      members.set(member, now() + ttlMs);
    },
    async removeMember(key, member) {
      return sets.get(key)?.delete(member) ?? false;
    },
    async countMembers(key) {
      const members = sets.get(key);
      if (!members) return 0;
      for (const [m, exp] of members) if (exp <= now()) members.delete(m);
      return members.size;
    },
    async publish(channel, message) {
      for (const listener of channels.get(channel) ?? []) listener(message);
    },
    async subscribe(channel, listener) {
      let set = channels.get(channel);
      if (!set) channels.set(channel, (set = new Set()));
      set.add(listener);
      return async () => {
        set.delete(listener);
        if (set.size === 0 && channels.get(channel) === set) channels.delete(channel);
      };
    },
    async close() {
      clearInterval(sweep);
    },
  };
}
