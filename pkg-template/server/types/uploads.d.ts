export type Context = import("./options.js").Context;
export type Reply = import("./answers.js").Reply;
/**
 * The folder of `user`'s uploads: `u-` and 22 characters (128 bits) of an HMAC-SHA-256 of the user
 * id, keyed with the service key.
 * @param {Context} ctx @param {string} user
 */
export declare function uploadFolder(ctx: Context, user: string): Promise<string>;
/**
 * Puts a JSON upload (`uploadFromUrl`, `uploadBase64`) in `user`'s folder: its `uploadPath` is
 * rewritten in `fields`, which the operation's rules have passed. A refusal when a name could leave
 * the folder or a field placing the file is spelled another way.
 * @param {Context} ctx @param {string} user @param {Record<string, unknown>} fields
 * @returns {Promise<Reply | null>}
 */
export declare function placeJsonUpload(ctx: Context, user: string, fields: Record<string, unknown>): Promise<Reply | null>;
/**
 * A stream upload's multipart body with its file put in `user`'s folder, as it passes: each
 * `uploadPath` part is rewritten (or one added at the end), the file's own name and `fileName` are
 * checked, and the file's bytes go through as they come. `problem()` is the refusal when the body
 * was stopped for a name that could leave the folder (or a body that is not multipart).
 * @param {Context} ctx @param {string} user @param {ReadableStream<Uint8Array>} body @param {string} contentType
 * @returns {Promise<{ body: ReadableStream<Uint8Array>, problem: () => Reply | null } | { refusal: Reply }>}
 */
export declare function placeStreamUpload(ctx: Context, user: string, body: ReadableStream<Uint8Array>, contentType: string): Promise<{
    body: ReadableStream<Uint8Array>;
    problem: () => Reply | null;
} | {
    refusal: Reply;
}>;
