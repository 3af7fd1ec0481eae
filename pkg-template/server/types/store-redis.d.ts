export type CompanionStore = import("./store.js").CompanionStore;
/**
 * A store on a node-redis client (v4 or later) that the application created and connected: the
 * package adds no dependency. Writes go through `client`; subscriptions need a connection of their
 * own, `subscriber` (by default `client.duplicate()`, connected on first use).
 * @param {{ client: any, subscriber?: any, prefix?: string }} options
 * @returns {CompanionStore}
 */
export declare function redisStore({ client, subscriber, prefix }?: {
    client: any;
    subscriber?: any;
    prefix?: string;
}): CompanionStore;
