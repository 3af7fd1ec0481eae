// The companion's state in Redis, for several companion instances behind a load balancer: an event
// received by one instance reaches pages connected to another through Redis pub/sub.

/**
 * A store on a node-redis client (v4 or later) that the application created and connected: the
 * package adds no dependency. Publishing goes through `client`; subscriptions need a connection of
 * their own, `subscriber` (by default `client.duplicate()`, connected on first use).
 */
export function redisStore({ client, subscriber, prefix = "tunesmith:" } = {}) {
  if (!client || typeof client.incr !== "function") {
    throw new TypeError("redisStore needs { client }: a connected node-redis client");
  }
  const k = (key) => prefix + key;
  let sub = subscriber;
  let subReady;
  const channels = new Map(); // channel -> { listeners: Set, ready: Promise of the subscription }
  const subscription = () =>
    (subReady ??= (async () => {
      sub ??= client.duplicate();
      if (!sub.isOpen) await sub.connect();
      return sub;
    })());

  return {
    async get(key) {
      return client.get(k(key));
    },
    async set(key, value, ttlMs) {
      await client.set(k(key), String(value), { PX: Math.max(1, Math.ceil(ttlMs)) });
    },
    async setIfAbsent(key, value, ttlMs) {
      const ok = await client.set(k(key), String(value), { PX: Math.max(1, Math.ceil(ttlMs)), NX: true });
      return ok === "OK";
    },
    async delete(key) {
      await client.del(k(key));
    },
    async incr(key, ttlMs) {
      const count = await client.incr(k(key));
      if (count === 1) await client.pExpire(k(key), Math.max(1, Math.ceil(ttlMs)));
      const left = await client.pTTL(k(key));
      return { count, ttlMs: left > 0 ? left : ttlMs };
    },
    async push(key, value, maxLength, ttlMs) {
      await client
        .multi()
        .rPush(k(key), value)
        .lTrim(k(key), -maxLength, -1)
        .pExpire(k(key), Math.max(1, Math.ceil(ttlMs)))
        .exec();
    },
    async list(key) {
      return client.lRange(k(key), 0, -1);
    },
    // Members expire one by one: a sorted set scored by expiry time.
    async addMember(key, member, ttlMs) {
      await client.zAdd(k(key), { score: Date.now() + ttlMs, value: member });
      await client.pExpire(k(key), Math.max(1, Math.ceil(ttlMs)));
    },
    async removeMember(key, member) {
      return (await client.zRem(k(key), member)) > 0;
    },
    async countMembers(key) {
      await client.zRemRangeByScore(k(key), "-inf", Date.now());
      return client.zCard(k(key));
    },
    async publish(channel, message) {
      await client.publish(k(channel), message);
    },
    // Resolves once Redis confirmed the subscription, so that a caller reading a backlog after it
    // misses nothing published in between.
    async subscribe(channel, listener) {
      const conn = await subscription();
      let entry = channels.get(channel);
      if (!entry) {
        const listeners = new Set();
        const ready = conn.subscribe(k(channel), (message) => {
          for (const l of listeners) l(message);
        });
        channels.set(channel, (entry = { listeners, ready }));
      }
      entry.listeners.add(listener);
      await entry.ready;
      return async () => {
        entry.listeners.delete(listener);
        if (entry.listeners.size === 0 && channels.get(channel) === entry) {
          channels.delete(channel);
          await conn.unsubscribe(k(channel)).catch(() => {});
        }
      };
    },
    async close() {
      if (subReady) {
        const conn = await subReady.catch(() => null);
        if (conn && conn !== subscriber && conn.isOpen) await conn.quit().catch(() => {});
      }
    },
  };
}
