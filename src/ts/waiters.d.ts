// ---- Waiters ----------------------------------------------------------------------------------

/**
 * Options of `waitForTask` and the other waiters, of `watchTask`, and of `wait: {...}` on a create.
 *
 * The first query goes out at once; the next ones after `minIntervalMs`, each interval 1.5 times the
 * one before, up to `maxIntervalMs`, with ±10% jitter so that many waiters do not query in step.
 * Network failures, timeouts, 500, maintenance and rate-limit answers do not fail the wait: the
 * next query follows the schedule; a rate-limit answer doubles the interval (per answer in a row,
 * up to the maximum) and a `Retry-After` is honoured. Each query is a single attempt (the client's
 * `maxRetries` does not apply: the schedule is the retry policy). An unauthorized key or an unknown
 * task id rejects at once with the `ApiError`.
 */
export interface WaitOptions<T = unknown> {
  /** Cancels the wait at once, during a query or a sleep: rejects with `AbortError`; no request follows. */
  signal?: AbortSignal;
  /**
   * Overall deadline in milliseconds. Default 600000 (10 minutes). One last query goes out just
   * before it (a tenth of the wait, at most 1 s, before); then the wait rejects with `TimeoutError`.
   */
  timeoutMs?: number;
  /** First interval between queries, in milliseconds. Default 1000. */
  minIntervalMs?: number;
  /** Longest interval between queries, in milliseconds. Default 30000 (the service's recommendation). */
  maxIntervalMs?: number;
  /**
   * Called with the record each time the task's state changes, once per state and in order (music:
   * per stage: `pending`, `text`, `first` — the first track is then playable through its
   * `streamAudioUrl` — and `complete`; stages the service skips are not reported). The final
   * success is reported too, just before the Promise resolves; a failure is not progress: it is
   * the rejection. Not awaited; if it throws, the wait stops and rejects with what it threw.
   */
  onProgress?: (record: T) => void;
}

/** `wait` of a task-creating call: `true` for the default waiter options, or the options. */
export type Wait<T> = true | WaitOptions<T>;

export interface Client {
  /**
   * Waits for a music task (generate, extend, uploadCover, uploadExtend, addInstrumental, addVocals)
   * to end, and resolves with its final record, as `getTask` returns it.
   *
   * Rejects with `TaskFailedError` when the task fails (`taskStatus`: `SENSITIVE_WORD_ERROR`,
   * `GENERATE_AUDIO_FAILED`, `CALLBACK_EXCEPTION`, `CREATE_TASK_FAILED`, ...; the failed record in
   * `record`), `TimeoutError` at the deadline, `AbortError` when the signal fires.
   *
   * @example
   * const task = await client.waitForTask(taskId, {
   *   onProgress: (t) => { if (t.stage === "first") player.src = t.tracks[0].streamAudioUrl!; },
   * });
   */
  waitForTask(taskId: string | TaskCreated, options?: WaitOptions<MusicTask>): Promise<MusicTask>;
  /** Waits for a cover task; resolves with the final record (as `getCover`). A failure (`successFlag` 3) rejects with `TaskFailedError`, `taskStatus` 3. */
  waitForCover(taskId: string | TaskCreated, options?: WaitOptions<CoverTask>): Promise<CoverTask>;
  /** Waits for a WAV conversion; resolves with the final record (as `getWav`). Failures (`GENERATE_WAV_FAILED`, ...) reject with `TaskFailedError`. */
  waitForWav(taskId: string | TaskCreated, options?: WaitOptions<WavTask>): Promise<WavTask>;
  /** Waits for a lyrics task; resolves with the final record (as `getLyrics`). Failures (`GENERATE_LYRICS_FAILED`, ...) reject with `TaskFailedError`. */
  waitForLyrics(taskId: string | TaskCreated, options?: WaitOptions<LyricsTask>): Promise<LyricsTask>;
  /** Waits for a vocal separation; resolves with the final record (as `getVocalSeparation`). Failures reject with `TaskFailedError`. */
  waitForVocalSeparation(
    taskId: string | TaskCreated,
    options?: WaitOptions<VocalSeparationTask>,
  ): Promise<VocalSeparationTask>;
  /** Waits for a music video; resolves with the final record (as `getVideo`). Failures (`GENERATE_MP4_FAILED`, ...) reject with `TaskFailedError`. */
  waitForVideo(taskId: string | TaskCreated, options?: WaitOptions<VideoTask>): Promise<VideoTask>;
  /**
   * The states of a music task as an async iterator: yields the record once per change of state
   * (as `onProgress` would receive it), the last one being the completed task; then the iteration
   * ends. A failed task makes the iteration throw `TaskFailedError` (the failed record in its
   * `record`); the deadline throws `TimeoutError`, the signal `AbortError`. `break` stops polling.
   * `onProgress` is not used here.
   *
   * @example
   * for await (const task of client.watchTask(taskId)) {
   *   console.log(task.stage, task.tracks.length);
   * }
   */
  watchTask(taskId: string | TaskCreated, options?: WaitOptions<MusicTask>): AsyncIterableIterator<MusicTask>;
}

// ---- Callbacks --------------------------------------------------------------------------------

/** Stage of a callback: music tasks call back at `text`, `first` (either may be skipped) and `complete`, or `error`; the other families once, `complete` or `error`. */
export type CallbackStage = "text" | "first" | "complete" | "error";

/** What every callback event has. */
export interface CallbackEventBase {
  /** Which kind of task called back; the discriminant of `CallbackEvent`. */
  family: "music" | "cover" | "wav" | "lyrics" | "vocal_separation" | "video";
  /** The task id the create call returned (the service writes `task_id` or `taskId`). */
  taskId: string;
  stage: CallbackStage;
  /** `running` for `text` and `first`, `succeeded` for `complete`, `failed` for `error`. */
  state: Extract<TaskState, "running" | "succeeded" | "failed">;
  /** The callback's code: 200 success; 400 bad request or content violation; 451 source files could not be downloaded; 500 server error. */
  code: number;
  msg: string;
  /** The body as received (parsed). */
  raw: unknown;
}

/** A generation callback (generate, extend, uploadCover, uploadExtend, addInstrumental, addVocals). */
export interface MusicCallbackEvent extends CallbackEventBase {
  family: "music";
  /** The tracks so far, in the same camelCase `Track` shape as `getTask` (the service sends snake_case): none at `text` (usually), the first at `first` (playable through `streamAudioUrl`), all at `complete`; empty on `error`. */
  tracks: Track[];
}

export interface CoverCallbackEvent extends CallbackEventBase {
  family: "cover";
  stage: "complete" | "error";
  /** Cover image URLs (normally 2); empty on failure. */
  images: string[];
}

export interface WavCallbackEvent extends CallbackEventBase {
  family: "wav";
  stage: "complete" | "error";
  /** The WAV file; null on failure. */
  audioWavUrl: string | null;
}

export interface LyricsCallbackEvent extends CallbackEventBase {
  family: "lyrics";
  stage: "complete" | "error";
  /** The texts written (keys camelCased); empty on failure. */
  lyrics: LyricsText[];
}

export interface VocalSeparationCallbackEvent extends CallbackEventBase {
  family: "vocal_separation";
  stage: "complete" | "error";
  /** Stem URLs, camelCased as in `getVocalSeparation` (`vocalUrl`, `instrumentalUrl`, ...); null on failure. */
  stems: Stems | null;
}

export interface VideoCallbackEvent extends CallbackEventBase {
  family: "video";
  stage: "complete" | "error";
  /** The MP4 file; null on failure. */
  videoUrl: string | null;
}

/** A callback, classified and normalized by `parseCallback`; switch on `family`. */
export type CallbackEvent =
  | MusicCallbackEvent
  | CoverCallbackEvent
  | WavCallbackEvent
  | LyricsCallbackEvent
  | VocalSeparationCallbackEvent
  | VideoCallbackEvent;

/**
 * Parses the body of a callback POST (the parsed object, its JSON text, or its bytes such as a
 * Node `Buffer`) into a typed event, for every documented shape. Throws `ValidationError` (with the
 * offending `field`) for anything else, never a crash. The service may call the same URL several
 * times per task, and again for a delivery it thinks failed: see `CallbackDeduper`.
 */
export function parseCallback(body: unknown): CallbackEvent;

/**
 * Remembers which task stages were handled, so that a receiver acts on each once:
 * the key is family, task id and stage. Bounded: past `maxEntries` (default 10000), the least
 * recently seen keys are forgotten first. Memory lives in the wasm module; one per process is the
 * intended use.
 */
export class CallbackDeduper {
  constructor(options?: { maxEntries?: number });
  /** True the first time this family, task and stage is seen, false for a repeat. Takes an event, or a raw body (parsed first; a malformed one throws `ValidationError`). */
  isNew(event: CallbackEvent | unknown): boolean;
  /** Forgets an event, so that a redelivery counts as new again: call it when handling failed. */
  forget(event: CallbackEvent | unknown): boolean;
  /** Keys remembered. */
  readonly size: number;
  free(): void;
}
