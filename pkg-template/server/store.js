// What a companion store is: the state several instances (or one restarted instance) must share.
// `memoryStore`, `fileStore` and `redisStore` implement it; an application may bring its own.

/**
 * Where the companion keeps task owners, callback tokens, references, events and limits. Every
 * method is async, as a networked store's are. The operations that decide a limit or number an
 * event are atomic (one step for every instance that shares the store).
 *
 * @typedef {object} CompanionStore
 * @property {(key: string) => Promise<string | null>} get
 * @property {(key: string, value: string, ttlMs: number) => Promise<void>} set
 * @property {(key: string, value: string, ttlMs: number) => Promise<boolean>} setIfAbsent
 *   Sets the key only when it is absent; true when it was set.
 * @property {(key: string) => Promise<void>} delete
 * @property {(key: string, ttlMs: number) => Promise<{ count: number, ttlMs: number }>} incr
 *   Adds 1 (a new key starts at 0, with `ttlMs` to live); the new count and the time it has left.
 * @property {(key: string, member: string, ttlMs: number, max?: number) => Promise<boolean>} addMember
 *   Adds a member, or renews one, to a set whose members expire one by one. With `max`, a new
 *   member is added only while fewer than `max` live ones are in (counting and adding are one
 *   step); true when it was added or renewed.
 * @property {(key: string, member: string) => Promise<boolean>} removeMember
 * @property {(key: string, value: string, maxLength: number, ttlMs: number) => Promise<number>} append
 *   Numbers `value` with an id above every id given under `key` before (also once the counter has
 *   expired, or a memory store restarted: an id is never below the clock's milliseconds), keeps
 *   `"<id> <value>"` in the list `key` (its last `maxLength` items), renews the list and its
 *   counter for `ttlMs`, and publishes the same line on the channel `key`, all in one step;
 *   resolves with the id.
 * @property {(key: string, start: number, stop: number) => Promise<string[]>} range
 *   Items `start` to `stop` (both included) of the list `key`; negative indexes count from its end.
 * @property {(channel: string, listener: (message: string) => void) => Promise<() => Promise<void>>} subscribe
 *   Resolves once subscribed, with the function that unsubscribes.
 * @property {() => Promise<void>} [close] Releases connections and timers.
 */

export {};
