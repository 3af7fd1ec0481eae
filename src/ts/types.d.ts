// ---- Client options -------------------------------------------------------------------------

/** Options of `new Client(...)`. */
export interface ClientOptions {
  /**
   * The bearer key, or a function returning one (or a Promise of one), called before each attempt so
   * that an app can fetch short-lived keys from its own backend. Omit it when `baseUrl` points at
   * your own proxy that adds the key.
   */
  apiKey?: string | (() => string | Promise<string>);
  /** Music host. Default `https://api.sunoapi.org`. Point it at a proxy or the local emulator. */
  baseUrl?: string;
  /** Upload host. Default `https://sunoapiorg.redpandaai.co`. */
  uploadUrl?: string;
  /** Service segment in the cover paths (`/api/v1/{segment}/cover/...`). Default `suno`. */
  serviceSegment?: string;
  /** Timeout of each attempt, in milliseconds. Default 60000. */
  timeoutMs?: number;
  /** Timeout of each upload attempt, in milliseconds. Default 600000. */
  uploadTimeoutMs?: number;
  /**
   * Retries after a retryable failure, 0 to 10. Default 2. Task-creating calls are retried only when
   * the service said nothing was created (rate limit, maintenance): never after a 500 or a timeout.
   */
  maxRetries?: number;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** A fetch implementation to use instead of the global `fetch`. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /**
   * Allows a literal `apiKey` in a browser page, where anyone can read it. Prefer a proxy
   * (`baseUrl`) or an `apiKey` function that returns short-lived keys.
   */
  dangerouslyAllowBrowser?: boolean;
}

/** Options of one call. */
export interface RequestOptions {
  /** Cancels the request in flight and any backoff sleep, at once (rejects with `AbortError`). */
  signal?: AbortSignal;
  /** Timeout of each attempt of this call, in milliseconds. */
  timeoutMs?: number;
  /** Retries for this call, 0 to 10. */
  maxRetries?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

// ---- Shared vocabulary ------------------------------------------------------------------------

/**
 * Model version. `V6` (default, recommended), `V6_WILD` (more experimental and creative), `V6_MINI`
 * (lightweight). Deprecated, accepted for backward compatibility: `V5_5` (voice-customized), `V5`,
 * `V4_5PLUS` (richer tones, up to 8 min), `V4_5ALL` (better song structure, up to 8 min), `V4_5`
 * (better prompt understanding, up to 8 min), `V4` (improved vocals, up to 4 min).
 */
export type Model = "V6" | "V6_WILD" | "V6_MINI" | "V5_5" | "V5" | "V4_5PLUS" | "V4_5ALL" | "V4_5" | "V4";

/** Vocal gender: `m` male, `f` female. */
export type VocalGender = "m" | "f";

/** Normalized state of any task, whatever its family's own encoding. */
export type TaskState = "pending" | "running" | "succeeded" | "failed";

/** Stage of a music task: as the callbacks name them, plus `pending` before the first. */
export type MusicStage = "pending" | "text" | "first" | "complete" | "error";

/** Weights shared by the generation requests. */
export interface Weights {
  /** Weight of the style, 0 to 1 in steps of 0.01. */
  styleWeight?: number;
  /** How far from convention the result may stray, 0 to 1 in steps of 0.01. */
  weirdnessConstraint?: number;
  /** Weight of the input audio, 0 to 1 in steps of 0.01. */
  audioWeight?: number;
}

// ---- Requests ----------------------------------------------------------------------------------

/** `generate`: 2 tracks from a description (or lyrics, style and title in custom mode). */
export interface GenerateRequest extends Weights {
  /** `true`: `style` and `title` are given, `prompt` is the lyrics; `false`: only a `prompt` describing the song. */
  customMode: boolean;
  /** `true`: no vocals. */
  instrumental: boolean;
  model: Model;
  /** Receives the task's callbacks (POST, JSON): stages `text`, `first`, `complete` or `error`. */
  callBackUrl: string;
  prompt?: string;
  style?: string;
  title?: string;
  /** Styles or traits to exclude. */
  negativeTags?: string;
  vocalGender?: VocalGender;
  personaId?: string;
}

/** `extend`: continues a generated track. The model must equal the source's. Files are kept 15 days. */
export interface ExtendRequest extends Weights {
  /** `true`: custom parameters (`prompt`, `style`, `title`, `continueAt` required); `false`: the source's own. */
  defaultParamFlag: boolean;
  /** The track to extend (a `Track.id`). */
  audioId: string;
  callBackUrl: string;
  /** Must equal the source track's model. */
  model?: Model;
  /** At most 3000 characters. */
  prompt?: string;
  /** At most 200 characters. */
  style?: string;
  /** At most 80 characters. */
  title?: string;
  /** Seconds into the source where the extension starts: above 0 and below the track's length. */
  continueAt?: number;
  negativeTags?: string;
  vocalGender?: VocalGender;
}

/** `uploadCover`: covers an uploaded audio in a new style. */
export interface UploadCoverRequest extends Weights {
  /** Publicly accessible audio file, e.g. an `UploadedFile.downloadUrl`. */
  uploadUrl: string;
  customMode: boolean;
  instrumental: boolean;
  model: Model;
  callBackUrl: string;
  prompt?: string;
  style?: string;
  title?: string;
  negativeTags?: string;
  vocalGender?: VocalGender;
}

/** `uploadExtend`: extends an uploaded audio. */
export interface UploadExtendRequest extends Weights {
  uploadUrl: string;
  /** `true`: custom parameters (`continueAt` required). */
  defaultParamFlag: boolean;
  model: Model;
  callBackUrl: string;
  instrumental?: boolean;
  prompt?: string;
  style?: string;
  title?: string;
  /** Seconds into the source where the extension starts; above 0. */
  continueAt?: number;
  negativeTags?: string;
  vocalGender?: VocalGender;
}

/** `addInstrumental`: an accompaniment for an uploaded vocal stem or melody. Results are kept 14 days. */
export interface AddInstrumentalRequest extends Weights {
  /** Publicly accessible audio file (MP3, WAV and similar). */
  uploadUrl: string;
  /** Title of the generated track. */
  title: string;
  /** Styles or traits to exclude. */
  negativeTags: string;
  /** Desired style, mood and instruments. */
  tags: string;
  callBackUrl: string;
  /** Lyrics; at most 5000 characters for V6, V6_MINI and V6_WILD. */
  lyrics?: string;
  vocalGender?: VocalGender;
  /** 0 off, 1 normal (default), 2 high, 3 extra, 4 max. */
  variety?: 0 | 1 | 2 | 3 | 4;
  /** Default `V6`. */
  model?: Model;
}

/** `addVocals`: generated vocals over an uploaded instrumental. Results are kept 14 days. */
export interface AddVocalsRequest extends Weights {
  uploadUrl: string;
  callBackUrl: string;
  /** Lyrical concept or mood. */
  prompt: string;
  title: string;
  /** Styles or vocal traits to exclude. */
  negativeTags: string;
  /** Overall genre and vocal approach. */
  style: string;
  /** Accepted as a style control. */
  tags?: string;
  vocalGender?: VocalGender;
  /** Default `V6`. */
  model?: Model;
}

/** `boostStyle`: a style description, conversational or detailed. Tied to model V4_5. */
export interface BoostStyleRequest {
  content: string;
}

/** A status query: the `taskId` returned at creation. */
export interface TaskQuery {
  taskId: string;
}

/** `generateCover`: cover images (normally 2, in different styles) for a music task. Kept 14 days. */
export interface GenerateCoverRequest {
  /** The music task. */
  taskId: string;
  callBackUrl: string;
}

/** `convertToWav`: one of `taskId` or `audioId` identifies the track. WAV files are kept 15 days. */
export interface ConvertToWavRequest {
  taskId?: string;
  audioId?: string;
  callBackUrl?: string;
}

/** `generateLyrics`. */
export interface GenerateLyricsRequest {
  /** What the lyrics are about; at most 200 words. */
  prompt: string;
  callBackUrl: string;
}

/** `getTimestampedLyrics`: `audioId` wins over `musicIndex`. */
export interface TimestampedLyricsRequest {
  taskId: string;
  audioId?: string;
  /** 0 or 1: which of the task's two tracks. */
  musicIndex?: 0 | 1;
}

/** `separateVocals`. */
export interface SeparateVocalsRequest {
  taskId: string;
  audioId: string;
  callBackUrl: string;
  /** `separate_vocal` (default, 2 stems) or `split_stem` (up to 12 stems). */
  type?: "separate_vocal" | "split_stem";
}

/** `generateVideo`. */
export interface GenerateVideoRequest {
  taskId: string;
  audioId: string;
  callBackUrl: string;
  /** Shown in the video; at most 50 characters. */
  author?: string;
  /** Watermark domain; at most 50 characters. */
  domainName?: string;
}

// ---- Responses ---------------------------------------------------------------------------------

/** What a task-creating call resolves with. */
export interface TaskCreated {
  taskId: string;
}

/**
 * One generated track, in camelCase whatever casing the service used (callbacks send snake_case).
 * Unknown fields are kept, camelCased.
 */
export interface Track {
  /** The audioId. */
  id: string;
  /** The generated audio; may be empty before the task completes (use `streamAudioUrl`). URLs may be time-limited. */
  audioUrl: string;
  /** Streaming audio, playable from the `first` stage. */
  streamAudioUrl?: string;
  imageUrl?: string;
  /** Deprecated upstream link; it expires and is not maintained. */
  sourceAudioUrl?: string;
  sourceStreamAudioUrl?: string;
  sourceImageUrl?: string;
  /** Generation prompt or lyrics. */
  prompt?: string;
  /** Internal model name, distinct from the request's `model`. */
  modelName?: string;
  title?: string;
  tags?: string;
  /** ISO 8601 (the service's `YYYY-MM-DD hh:mm:ss` and epoch milliseconds are normalized). */
  createTime?: string;
  /** Seconds. */
  duration?: number;
  [field: string]: unknown;
}

/** Status of a music task (`getTask`). Raw fields of the service are kept. */
export interface MusicTask {
  taskId: string;
  /** PENDING, TEXT_SUCCESS, FIRST_SUCCESS, SUCCESS, or a failure: CREATE_TASK_FAILED, GENERATE_AUDIO_FAILED, CALLBACK_EXCEPTION, SENSITIVE_WORD_ERROR; unknown values are kept. */
  status: string;
  state: TaskState;
  stage: MusicStage;
  /** The tracks so far: the first at stage `first`, all at `complete`. */
  tracks: Track[];
  parentMusicId?: string;
  /** The original request, JSON-encoded. */
  param?: string;
  response?: { taskId?: string; sunoData?: Track[] | null; [field: string]: unknown } | null;
  type?: string;
  /** `generate`, `extend`, `upload_cover`, `upload_extend`, others possible. */
  operationType?: string;
  errorCode?: number | null;
  errorMessage?: string | null;
  [field: string]: unknown;
}

/** Status of a cover task (`getCover`). `successFlag`: 0 pending, 1 success, 2 generating, 3 failed. */
export interface CoverTask {
  taskId: string;
  parentTaskId?: string;
  callbackUrl?: string;
  successFlag: number;
  state: TaskState;
  /** Cover image URLs (normally 2), present on success; kept 14 days. */
  images: string[];
  response?: { images?: string[] | null } | null;
  createTime?: string;
  completeTime?: string;
  /** 200 success, 500 internal error (retry later). */
  errorCode?: number | null;
  errorMessage?: string | null;
  [field: string]: unknown;
}

/** Status of a WAV conversion (`getWav`). */
export interface WavTask {
  taskId: string;
  musicId?: string;
  callbackUrl?: string;
  /** PENDING, SUCCESS, CREATE_TASK_FAILED, GENERATE_WAV_FAILED, CALLBACK_EXCEPTION. */
  successFlag: string;
  state: TaskState;
  response?: { audioWavUrl?: string | null } | null;
  createTime?: string;
  completeTime?: string;
  errorCode?: number | null;
  errorMessage?: string | null;
  [field: string]: unknown;
}

/** One text of a lyrics task. */
export interface LyricsText {
  text: string;
  title: string;
  status: string;
  errorMessage?: string;
}

/** Status of a lyrics task (`getLyrics`). */
export interface LyricsTask {
  taskId: string;
  /** PENDING, SUCCESS, CREATE_TASK_FAILED, GENERATE_LYRICS_FAILED, CALLBACK_EXCEPTION, SENSITIVE_WORD_ERROR. */
  status: string;
  state: TaskState;
  /** The texts, from `response.lyricsData` (or `response.data`). */
  lyrics: LyricsText[];
  param?: string;
  response?: { taskId?: string; lyricsData?: LyricsText[]; data?: LyricsText[] } | null;
  errorCode?: number | null;
  errorMessage?: string | null;
  [field: string]: unknown;
}

/** Stem URLs of a vocal separation; which are present depends on the separation `type`. */
export interface Stems {
  originUrl?: string;
  instrumentalUrl?: string;
  vocalUrl?: string;
  backingVocalsUrl?: string;
  drumsUrl?: string;
  bassUrl?: string;
  guitarUrl?: string;
  keyboardUrl?: string;
  percussionUrl?: string;
  stringsUrl?: string;
  synthUrl?: string;
  fxUrl?: string;
  brassUrl?: string;
  woodwindsUrl?: string;
  [field: string]: unknown;
}

/** Status of a vocal separation (`getVocalSeparation`). */
export interface VocalSeparationTask {
  taskId: string;
  musicId?: string;
  callbackUrl?: string;
  musicIndex?: number;
  /** PENDING, SUCCESS, CREATE_TASK_FAILED, GENERATE_AUDIO_FAILED, CALLBACK_EXCEPTION. */
  successFlag: string;
  state: TaskState;
  response?: Stems | null;
  createTime?: string;
  completeTime?: string;
  errorCode?: number | null;
  errorMessage?: string | null;
  [field: string]: unknown;
}

/** Status of a music video (`getVideo`). */
export interface VideoTask {
  taskId: string;
  musicId?: string;
  callbackUrl?: string;
  musicIndex?: number;
  /** PENDING, SUCCESS, CREATE_TASK_FAILED, GENERATE_MP4_FAILED, CALLBACK_EXCEPTION. */
  successFlag: string;
  state: TaskState;
  response?: { videoUrl?: string | null } | null;
  createTime?: string;
  completeTime?: string;
  errorCode?: number | null;
  errorMessage?: string | null;
  [field: string]: unknown;
}

/** Result of `boostStyle`. `successFlag`: "0" pending, "1" success, "2" failed. */
export interface StyleBoost {
  taskId: string;
  param?: string;
  /** The boosted style text. */
  result: string;
  creditsConsumed?: number;
  creditsRemaining?: number;
  successFlag: string;
  state: TaskState;
  errorCode?: number | null;
  errorMessage?: string | null;
  createTime?: string;
  [field: string]: unknown;
}

/** One word of timestamped lyrics; times in seconds. */
export interface AlignedWord {
  word: string;
  success: boolean;
  startS: number;
  endS: number;
  palign: number;
}

/** Result of `getTimestampedLyrics`. */
export interface TimestampedLyrics {
  alignedWords: AlignedWord[];
  waveformData: number[];
  hootCer: number;
  isStreamed: boolean;
  [field: string]: unknown;
}

/** Result of `getCredits`. */
export interface Credits {
  credits: number;
}
