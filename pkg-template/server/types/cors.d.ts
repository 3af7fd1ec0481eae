/**
 * The answer to a preflight from an allowed origin. The headers it asks for are allowed: the origin
 * is trusted, and the page's own session header is the developer's to name.
 * @param {string | null} origin @param {Request} request
 */
export declare function preflight(origin: string | null, request: Request): Response;
/**
 * `response` with the CORS headers of an allowed `origin`.
 * @param {Response} response @param {string | null} origin
 */
export declare function cors(response: Response, origin: string | null): Response;
