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
/**
 * The test of a request's Host header: publicUrl's host, or one `allowedHosts` lists, compared as
 * the header spells them (lower case, the scheme's default port left out or not). A publicUrl on
 * the loopback interface (`localhost`, `127.0.0.1`, `[::1]`) takes all three names on its port.
 * An entry that is not a host (a URL, a path, userinfo) fails here, naming the option.
 * @param {string} publicUrl @param {unknown} allowedHosts
 * @returns {(host: string | null) => boolean}
 */
export declare function hostTest(publicUrl: string, allowedHosts?: unknown): (host: string | null) => boolean;
