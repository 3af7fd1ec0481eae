export type Reply = import("./answers.js").Reply;
/**
 * `http.createServer(toNodeListener(handler))`. Request URLs are built on `origin` (default: the
 * companion's `publicUrl` origin, `handler.origin`), never on the request's Host header.
 * @param {((request: Request) => Promise<Response>) & { origin?: string }} handler
 * @param {{ origin?: string }} [options]
 * @returns {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void}
 */
export declare function toNodeListener(handler: ((request: Request) => Promise<Response>) & {
    origin?: string;
}, options?: {
    origin?: string;
}): (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void;
