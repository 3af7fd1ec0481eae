export type CompanionStore = import("./store.js").CompanionStore;
export type RedisClient = {
    eval: (script: string, options: {
        keys: string[];
        arguments: string[];
    }) => Promise<unknown>;
    get: (key: string) => Promise<string | null>;
    set: (key: string, value: string, options: {
        PX: number;
        NX?: boolean;
    }) => Promise<string | null>;
    del: (key: string) => Promise<number>;
    zRem: (key: string, member: string) => Promise<number>;
    lRange: (key: string, start: number, stop: number) => Promise<string[]>;
    duplicate: () => RedisSubscriber;
};
export type RedisSubscriber = {
    isOpen: boolean;
    connect: () => Promise<unknown>;
    subscribe: (channel: string, listener: (message: string) => void) => Promise<unknown>;
    unsubscribe: (channel: string) => Promise<unknown>;
    quit: () => Promise<unknown>;
};
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
export declare function redisStore({ client, subscriber, prefix }?: {
    client: RedisClient;
    subscriber?: RedisSubscriber;
    prefix?: string;
}): CompanionStore;
