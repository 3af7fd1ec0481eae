export type Context = import("./options.js").Context;
export type Reply = import("./answers.js").Reply;
/** @typedef {import("./options.js").Context} Context */
/** @typedef {import("./answers.js").Reply} Reply */
/** A task counts as in flight until its final callback, or for at most this long. */
export declare const TASK_IN_FLIGHT_MS: number;
/** @param {Context} ctx @param {string} user */
export declare function checkRate(ctx: Context, user: string): Promise<import("./answers.js").Reply | null>;
/**
 * Takes one of the user's task slots for the task whose callback token is `token`, or answers the
 * 429: counting and taking are one step of the store, so concurrent creates cannot all pass.
 * @param {Context} ctx @param {string} user @param {string} token
 */
export declare function taskStarted(ctx: Context, user: string, token: string): Promise<import("./answers.js").Reply | null>;
/** @param {Context} ctx @param {string} user @param {string} token */
export declare function taskEnded(ctx: Context, user: string, token: string): Promise<void>;
/**
 * Counts a request of `user` in flight on this instance: the function that ends it, or the refusal
 * (429 past the user's `requestsInFlight`, 503 past `totalRequestsInFlight`).
 * @param {Context} ctx @param {string} user
 * @returns {{ done: () => void } | { refusal: Reply }}
 */
export declare function requestStarted(ctx: Context, user: string): {
    done: () => void;
} | {
    refusal: Reply;
};
/**
 * Counts an event stream of `user` open on this instance: the function that closes its count, or
 * the 429 past `eventStreams`.
 * @param {Context} ctx @param {string} user
 * @returns {{ done: () => void } | { refusal: Reply }}
 */
export declare function streamOpened(ctx: Context, user: string): {
    done: () => void;
} | {
    refusal: Reply;
};
