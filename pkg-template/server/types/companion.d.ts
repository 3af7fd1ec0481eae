export type CompanionOptions = import("./options.js").CompanionOptions;
export type Context = import("./options.js").Context;
export type CompanionHandler = ((request: Request) => Promise<Response>) & {
    origin: string;
    close(): Promise<void>;
};
/** @typedef {import("./options.js").CompanionOptions} CompanionOptions */
/** @typedef {import("./options.js").Context} Context */
/**
 * A Web-standard handler, as Node (through `toNodeListener`), Deno, Bun, Workers and Next use.
 * `origin` is `publicUrl`'s, which `toNodeListener` builds request URLs from; `close()` releases
 * the store's connections and timers and the pool of connections to the service.
 * @typedef {((request: Request) => Promise<Response>) & { origin: string, close(): Promise<void> }} CompanionHandler
 */
/**
 * The companion: serves `/music/*` and `/upload/*` (the allowed operations, with the key added),
 * `/events` (the caller's task events as Server-Sent Events) and `/callbacks/<token>` (the
 * service's callbacks) under the path of `publicUrl`.
 * @param {CompanionOptions} options
 * @returns {CompanionHandler}
 */
export declare function createCompanion(options: CompanionOptions): CompanionHandler;
