// The companion's state in Redis, for several companion instances behind a load balancer (an event
// received by one instance reaches pages connected to another through Redis pub/sub), and across
// restarts as long as Redis keeps its data.

/** @typedef {import("./store.js").CompanionStore} CompanionStore */

// Each limit and each event number is one script: counting and adding cannot interleave between
// instances.
const INCR = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

const ADD_MEMBER = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

// KEYS: list (also the channel), counter. ARGV: value, max length, ttl, the clock's milliseconds.
const APPEND = `
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
local id = math.max(last + 1, tonumber(ARGV[4]))
local text = string.format('%d', id)
redis.call('SET', KEYS[2], text, 'PX', ARGV[3])
local line = text .. ' ' .. ARGV[1]
redis.call('RPUSH', KEYS[1], line)
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PUBLISH', KEYS[1], line)
return text`;

/** @param {number} ms */
const ttl = (ms) => String(Math.max(1, Math.ceil(ms)));

/**
 * The methods of a node-redis client (v4 or later) that the store calls.
 * @typedef {object} RedisClient
 * @property {(script: string, options: { keys: string[], arguments: string[] }) => Promise<unknown>} eval
 * @property {(key: string) => Promise<string | null>} get
 * @property {(key: string, value: string, options: { PX: number, NX?: boolean }) => Promise<string | null>} set
 * @property {(key: string) => Promise<number>} del
 * @property {(key: string, member: string) => Promise<number>} zRem
 * @property {(key: string, start: number, stop: number) => Promise<string[]>} lRange
 * @property {() => RedisSubscriber} duplicate
 */
/**
 * The methods of the connection the store subscribes on (node-redis).
 * @typedef {object} RedisSubscriber
 * @property {boolean} isOpen
 * @property {() => Promise<unknown>} connect
 * @property {(channel: string, listener: (message: string) => void) => Promise<unknown>} subscribe
 * @property {(channel: string) => Promise<unknown>} unsubscribe
 * @property {() => Promise<unknown>} quit
 */

/**
 * A store on a node-redis client (v4 or later) that the application created and connected: the
 * package adds no dependency. Writes go through `client`; subscriptions need a connection of their
 * own, `subscriber` (by default `client.duplicate()`, connected on first use).
 * @param {{ client: RedisClient, subscriber?: RedisSubscriber, prefix?: string }} options
 * @returns {CompanionStore}
 */
export function redisStore({ client, subscriber, prefix = "tunesmith:" } = /** @type {{ client: RedisClient }} */ ({})) {
  if (!client || typeof client.eval !== "function") {
    throw new TypeError("redisStore needs { client }: a connected node-redis client");
  }
  const k = (/** @type {string} */ key) => prefix + key;
  /** @param {string} script @param {string[]} keys @param {string[]} args */
  const run = (script, keys, args) => client.eval(script, { keys: keys.map(k), arguments: args });
  let sub = subscriber;
  /** @type {Promise<RedisSubscriber> | undefined} */
  let subReady;
  /** @type {Map<string, { listeners: Set<(message: string) => void>, ready: Promise<unknown> }>} */
  const channels = new Map();
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
      await client.set(k(key), String(value), { PX: Number(ttl(ttlMs)) });
    },
    async setIfAbsent(key, value, ttlMs) {
      return (await client.set(k(key), String(value), { PX: Number(ttl(ttlMs)), NX: true })) === "OK";
    },
    async delete(key) {
      await client.del(k(key));
    },
    async incr(key, ttlMs) {
      const [count, left] = /** @type {[number, number]} */ (await run(INCR, [key], [ttl(ttlMs)]));
      return { count: Number(count), ttlMs: Number(left) > 0 ? Number(left) : ttlMs };
    },
    async addMember(key, member, ttlMs, max = Infinity) {
      const now = Date.now();
      const limit = String(Number.isFinite(max) ? max : Number.MAX_SAFE_INTEGER);
      return Number(await run(ADD_MEMBER, [key], [member, String(now + ttlMs), String(now), limit, ttl(ttlMs)])) === 1;
    },
    async removeMember(key, member) {
      return (await client.zRem(k(key), member)) > 0;
    },
    async append(key, value, maxLength, ttlMs) {
      return Number(await run(APPEND, [key, `seq:${key}`], [value, String(maxLength), ttl(ttlMs), String(Date.now())]));
    },
    async range(key, start, stop) {
      return client.lRange(k(key), start, stop);
    },
    // Resolves once Redis confirmed the subscription, so that a caller reading a backlog after it
    // misses nothing published in between.
    async subscribe(channel, listener) {
      const conn = await subscription();
      let entry = channels.get(channel);
      if (!entry) {
        /** @type {Set<(message: string) => void>} */
        const listeners = new Set();
        const ready = conn.subscribe(k(channel), (/** @type {string} */ message) => {
          for (const l of listeners) l(message);
        });
        channels.set(channel, (entry = { listeners, ready }));
      }
      const joined = entry;
      joined.listeners.add(listener);
      await joined.ready;
      return async () => {
        joined.listeners.delete(listener);
        if (joined.listeners.size === 0 && channels.get(channel) === joined) {
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
