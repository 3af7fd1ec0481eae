export type Reply = import("./answers.js").Reply;
/** How long an answer may wait for its client to take more of it before the connection is closed. */
export declare const DEFAULT_WRITE_TIMEOUT_MS = 30000;
/**
 * Of a body its handler answered without reading (a refusal), the bytes read and let go so that the
 * connection serves the next request; past them, the rest is left unread and the connection closed.
 */
export declare const UNREAD_BODY_DRAIN_BYTES: number;
/**
 * `http.createServer(toNodeListener(handler))`. Request URLs are built on `origin` (default: the
 * companion's `publicUrl` origin, `handler.origin`), never on the request's Host header. An answer
 * its client takes nothing of for `writeTimeoutMs` (default `DEFAULT_WRITE_TIMEOUT_MS`) is dropped
 * with its connection, and what it held is given back.
 * @param {((request: Request) => Promise<Response>) & { origin?: string }} handler
 * @param {{ origin?: string, writeTimeoutMs?: number }} [options]
 * @returns {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void}
 */
export declare function toNodeListener(handler: ((request: Request) => Promise<Response>) & {
    origin?: string;
}, options?: {
    origin?: string;
    writeTimeoutMs?: number;
}): (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void;
