export declare const USER_AGENT = "tunesmith-companion";
export type UpstreamAnswer = {
    status: number;
    header: (name: string) => string | null;
    text: () => Promise<string>;
};
export type UpstreamRequest = {
    method: string;
    headers: Record<string, string>;
    body?: string | ReadableStream<Uint8Array>;
    signal?: AbortSignal;
};
/**
 * What the service answered.
 * @typedef {object} UpstreamAnswer
 * @property {number} status
 * @property {(name: string) => string | null} header
 * @property {() => Promise<string>} text
 */
/**
 * One request to the service.
 * @typedef {object} UpstreamRequest
 * @property {string} method
 * @property {Record<string, string>} headers
 * @property {string | ReadableStream<Uint8Array>} [body]
 * @property {AbortSignal} [signal]
 */
export declare const isNode: () => boolean;
/**
 * The transport of one companion (or of the Node Client): `send(url, request)` and `close()`
 * (which closes its pool).
 * @param {typeof fetch} [customFetch]
 * @param {string | null} [userAgent] the `user-agent` every request is sent with; `null`: the
 *   caller's own headers say (the Node Client keeps one its user set)
 */
export declare function upstream(customFetch?: typeof fetch, userAgent?: string | null): {
    /** Sets where a failure to load the pool is reported. */
    onWarning(/** @type {(message: string) => void} */ log: (message: string) => void): void;
    /** @param {string} url @param {UpstreamRequest} r */
    send(url: string, r: UpstreamRequest): Promise<UpstreamAnswer>;
    close(): Promise<void>;
};
