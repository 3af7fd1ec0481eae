export type Context = import("./options.js").Context;
export type Reply = {
    status: number;
    /**
     * lower-case names
     */
    headers: Record<string, string>;
    body: string | ReadableStream<Uint8Array> | null;
    /**
     * Gives back what the answer holds (its request's slot, the bytes
     * it counts in `bodyBytesInFlight`): called once, when it is written out or its client has gone.
     */
    release?: () => void;
};
/** @typedef {import("./options.js").Context} Context */
/**
 * An answer of the companion's before it is a `Response`: the handler makes one of it, while
 * `toNodeListener` writes it as it is (a `Response` costs more to make and read than the rest of a
 * small request's handling).
 * @typedef {object} Reply
 * @property {number} status
 * @property {Record<string, string>} headers lower-case names
 * @property {string | ReadableStream<Uint8Array> | null} body
 * @property {() => void} [release] Gives back what the answer holds (its request's slot, the bytes
 *   it counts in `bodyBytesInFlight`): called once, when it is written out or its client has gone.
 */
/** Where a companion's handler keeps its function that answers with a `Reply`, for `toNodeListener`. */
export declare const REPLY: unique symbol;
/**
 * A Reply as a `Response`. Its `release` is called once its body has been read to the end or
 * cancelled (at once for a text, which the Response holds from then on).
 * @param {Reply} reply
 */
export declare function toResponse(reply: Reply): Response;
/**
 * A `Response` as a Reply, its body streamed as it is.
 * @param {Response} response @returns {Reply}
 */
export declare function fromResponse(response: Response): Reply;
/**
 * A JSON answer with the given status, headers and body.
 * @param {number} status @param {unknown} body @param {Record<string, string>} [headers]
 * @returns {Reply}
 */
export declare function json(status: number, body: unknown, headers?: Record<string, string>): Reply;
/**
 * A refusal: `{ code, msg, error }`, and any extra fields (`field`, `rule`, `limit`).
 * @param {number} status @param {string} error @param {string} msg
 * @param {Record<string, unknown>} [extra] @param {Record<string, string>} [headers]
 * @returns {Reply}
 */
export declare function refuse(status: number, error: string, msg: string, extra?: Record<string, unknown>, headers?: Record<string, string>): Reply;
/**
 * The bytes of a body, or `null` past `max` bytes (the rest is not read).
 * @param {ReadableStream<Uint8Array> | null} body @param {number} max
 */
export declare function readCapped(body: ReadableStream<Uint8Array> | null, max: number): Promise<Uint8Array<ArrayBuffer> | null>;
/**
 * A JSON object body, read within `max` bytes and the instance's budget of body bytes in flight
 * (`limits.bodyBytesInFlight`, all requests together), as `readText` reads it. The bytes stay counted
 * in `lease` until the request is over (its fields are forwarded from memory).
 * @param {Context} ctx @param {Request} request @param {number} max @param {{ bytes: number }} lease
 * @returns {Promise<{ fields: Record<string, unknown> } | { refusal: Reply }>}
 */
export declare function readJson(ctx: Context, request: Request, max: number, lease: {
    bytes: number;
}): Promise<{
    fields: Record<string, unknown>;
} | {
    refusal: Reply;
}>;
/**
 * Takes `bytes` more from the instance's budget of body bytes in flight (`limits.bodyBytesInFlight`)
 * into `lease`; false (and nothing taken) when they do not fit.
 * @param {Context} ctx @param {{ bytes: number }} lease @param {number} bytes
 */
export declare function takeBytes(ctx: Context, lease: {
    bytes: number;
}, bytes: number): boolean;
/** Gives back the bytes of `lease` to the budget. @param {Context} ctx @param {{ bytes: number }} lease */
export declare function giveBack(ctx: Context, lease: {
    bytes: number;
}): void;
/**
 * A text body, within `max` bytes and the budget of body bytes in flight, counted in `lease` (see
 * `readJson`). Past `max`, a 413 (a declared length past it is refused before anything is read);
 * past the budget, a 503. While it comes, the body is held as the chunks Node read it in, each byte
 * once, as it is counted (decoded as it arrived, a chunk would stay in memory as garbage beside its
 * text until the next collection: twice the bytes counted); decoded once it is whole, each chunk let
 * go as soon as it is decoded.
 * @param {Context} ctx @param {Request} request @param {number} max @param {{ bytes: number }} lease
 * @returns {Promise<{ text: string } | { refusal: Reply }>}
 */
export declare function readText(ctx: Context, request: Request, max: number, lease: {
    bytes: number;
}): Promise<{
    text: string;
} | {
    refusal: Reply;
}>;
