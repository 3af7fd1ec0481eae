import { ROUTES } from "./routes.js";
export type Context = import("./options.js").Context;
export type Route = (typeof ROUTES)[number];
export type UpstreamAnswer = import("./upstream.js").UpstreamAnswer;
/**
 * @param {Context} ctx @param {string} user @param {string} host @param {string} path @param {URL} url
 * @param {Request} request @param {{ bytes: number }} lease
 */
export declare function forward(ctx: Context, user: string, host: string, path: string, url: URL, request: Request, lease: {
    bytes: number;
}): Promise<import("./answers.js").Reply>;
