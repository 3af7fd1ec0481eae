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
 * The transport of one companion: `send(url, request)` and `close()` (which closes its pool).
 * @param {typeof fetch} [customFetch]
 */
export declare function upstream(customFetch?: typeof fetch): {
    /** Sets where a failure to load the pool is reported. */
    onWarning(/** @type {(message: string) => void} */ log: (message: string) => void): void;
    /** @param {string} url @param {UpstreamRequest} r */
    send(url: string, r: UpstreamRequest): Promise<UpstreamAnswer>;
    close(): Promise<void>;
};
