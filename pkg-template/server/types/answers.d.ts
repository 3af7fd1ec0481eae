export type Context = import("./options.js").Context;
export type Reply = {
    status: number;
    /**
     * lower-case names
     */
    headers: Record<string, string>;
    body: string | ReadableStream<Uint8Array> | null;
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
 */
/** Where a companion's handler keeps its function that answers with a `Reply`, for `toNodeListener`. */
export declare const REPLY: unique symbol;
/** @param {Reply} reply */
export declare const toResponse: (reply: Reply) => Response;
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
 * A JSON object body, decoded chunk by chunk as it arrives (each chunk is let go once decoded: the
 * bytes are never gathered into one copy), within `max` bytes and the instance's budget of body
 * bytes in flight (`limits.bodyBytesInFlight`, all requests together). The bytes stay counted in
 * `lease` until the request is over (its fields are forwarded from memory).
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
