export type Context = import("./options.js").Context;
/** @typedef {import("./options.js").Context} Context */
/** Where an answer the companion made keeps its text, so that `toNodeListener` writes it without
 * reading the body's stream (which costs more than making the answer). */
export declare const TEXT: unique symbol;
/**
 * A Response of `text`, which carries it under `TEXT` too.
 * @param {string} text @param {number} status @param {Record<string, string>} headers
 * @returns {Response}
 */
export declare function textAnswer(text: string, status: number, headers: Record<string, string>): Response;
/**
 * A JSON answer with the given status, headers and body.
 * @param {number} status @param {unknown} body @param {Record<string, string>} [headers]
 */
export declare function json(status: number, body: unknown, headers?: Record<string, string>): Response;
/**
 * A refusal: `{ code, msg, error }`, and any extra fields (`field`, `rule`, `limit`).
 * @param {number} status @param {string} error @param {string} msg
 * @param {Record<string, unknown>} [extra] @param {Record<string, string>} [headers]
 */
export declare function refuse(status: number, error: string, msg: string, extra?: Record<string, unknown>, headers?: Record<string, string>): Response;
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
 * @returns {Promise<{ fields: Record<string, unknown> } | { refusal: Response }>}
 */
export declare function readJson(ctx: Context, request: Request, max: number, lease: {
    bytes: number;
}): Promise<{
    fields: Record<string, unknown>;
} | {
    refusal: Response;
}>;
