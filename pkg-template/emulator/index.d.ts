// `tunesmith/emulator`: the service's emulator in-process, for tests (Node 20+). The same Rust as
// the native binary, compiled to wasm: both hosts, stateful tasks, real media, callbacks, a clock
// you move, faults.

/** Options of `createEmulator`. Each maps to the native binary's flag of the same name. */
export interface EmulatorOptions {
    /** The accepted key (`--api-key`). Without `apiKey` and `apiKeys`, the development key `ts-dev-key`. */
    apiKey?: string;
    /** Several accepted keys. */
    apiKeys?: string[];
    /** Base URL of the music host, for `new Client({ baseUrl })`. Default `http://music.emulator.local`. */
    musicUrl?: string;
    /** Base URL of the upload host, for `new Client({ uploadUrl })`. Default `http://upload.emulator.local`. */
    uploadUrl?: string;
    /**
     * `"manual"` (default): time stands still until `advance(ms)`. `"system"`: stages advance in
     * real time, as on the native binary.
     */
    clock?: "manual" | "system";
    /** Starting credits of each key (`--credits`, default 10000). */
    credits?: number;
    /** Time between task stages in ms (`--stage-delay-ms`, default 1500). */
    stageDelayMs?: number;
    /** Requests per 10 s per key (`--rate-limit`, default 20; 0 turns it off). */
    rateLimit?: number;
    /** Share (0 to 1) of API answers replaced by a random retryable failure (`--fault-rate`). */
    faultRate?: number;
    /** Seed of ids and random faults (`--seed`): the same seed, the same ids and media. */
    seed?: number;
    /** A callback counts only if answered 200 within this many ms (`--callback-timeout-ms`, default 15000). */
    callbackTimeoutMs?: number;
    /** Wait before retrying a failed callback (`--callback-retry-delay-ms`, default 1000). */
    callbackRetryDelayMs?: number;
    /** Let URL uploads reach loopback and private addresses (`--allow-private-url-uploads`). */
    allowPrivateUrlUploads?: boolean;
    /** Keep tasks, uploads, media and credits in this folder (`--data-dir`); default: in memory. */
    dataDir?: string;
    /**
     * Receives every callback instead of the network: `(url, body)` with `body` the parsed JSON;
     * answer a status (200 counts as delivered), a `Response`, or nothing (200). Without it,
     * callbacks go to their URL with `fetch` (to the emulator itself for its own `/inbox/{name}`).
     */
    onCallback?: (url: string, body: unknown) => number | Response | void | Promise<number | Response | void>;
    /** The `fetch` that callbacks without `onCallback` go through (default: the global one). */
    fetch?: (input: string, init: RequestInit) => Promise<Response>;
    /** More of the binary's flags, as on its command line. */
    args?: string[];
}

/** One request the emulator received, as `GET /_emulator/requests` lists it. */
export interface EmulatorRequest {
    seq: number;
    host: "music" | "upload";
    method: string;
    path: string;
    query: string;
    /** The operation's name (`getTask`, ...), when the path is one. */
    op: string | null;
    /** The envelope code answered (the HTTP status where there is none). */
    code: number;
    /** `X-Emulator-Tag` of the request. */
    tag: string | null;
    at: string;
}

/** A fault armed for the requests carrying `X-Emulator-Tag: tag`. */
export interface FaultSpec {
    tag: string;
    /** Envelope code to answer with; absent or 0: answer normally after `delayMs`. */
    code?: number;
    /** How many matching requests are affected (default 1). */
    times?: number;
    retryAfterMs?: number;
    delayMs?: number;
    /** Operation names (`getTask`, ...); all when absent. */
    ops?: string[];
}

export interface Emulator {
    /** A `fetch` that serves both hosts; any other origin is refused as an unreachable host. */
    fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
    /** Give these to the client: `new Client({ apiKey, fetch: emulator.fetch, baseUrl: emulator.musicUrl, uploadUrl: emulator.uploadUrl })`. */
    readonly musicUrl: string;
    readonly uploadUrl: string;
    readonly clock: {
        readonly kind: "manual" | "system";
        /** The emulator's now, in ms since the epoch. */
        now(): number;
        /** As `Emulator.advance`. */
        advance(ms: number): Promise<number>;
    };
    /**
     * Moves the manual clock `ms` forward and resolves, with the new now, once every stage and
     * callback that fell due is done (a callback is done when answered, or when its timeout passed).
     * Rejects on the system clock, and with a `RangeError` for a negative or non-finite `ms`.
     */
    advance(ms: number): Promise<number>;
    /** The API requests received, oldest first; `tag` keeps those of one `X-Emulator-Tag`. */
    requests(filter?: { tag?: string; since?: number }): Promise<EmulatorRequest[]>;
    faults: { arm(spec: FaultSpec): Promise<void> };
    credits: {
        /** The balance of a key (default: the first accepted key). */
        get(apiKey?: string): Promise<number>;
        set(credits: number, apiKey?: string): Promise<number>;
    };
    /** Stops every callback delivery; the emulator answers no more requests. */
    close(): Promise<void>;
}

/** Starts an emulator in this process. */
export function createEmulator(options?: EmulatorOptions): Promise<Emulator>;
