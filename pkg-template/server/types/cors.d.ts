export type Reply = import("./answers.js").Reply;
/**
 * The answer to a preflight from an allowed origin. The headers it asks for are allowed: the origin
 * is trusted, and the page's own session header is the developer's to name.
 * @param {string | null} origin @param {Request} request @returns {Reply}
 */
export declare function preflight(origin: string | null, request: Request): Reply;
/**
 * `reply` with the CORS headers of an allowed `origin`.
 * @param {Reply} reply @param {string | null} origin
 */
export declare function cors(reply: Reply, origin: string | null): import("./answers.js").Reply;
