// ---- Uploads ----------------------------------------------------------------------------------
// Files are stored on the upload host for 3 days; use `downloadUrl` as the `uploadUrl` of
// `addInstrumental`, `addVocals`, `uploadCover` or `uploadExtend`. Uploading is free of charge.

/** Progress of an upload, in bytes of the file. */
export interface UploadProgress {
  /** Bytes of the file sent so far; never decreases, even across retries. */
  loaded: number;
  /** Size of the file in bytes; the last event has `loaded === total`. */
  total: number;
}

/** Options of `uploadFile`. */
export interface UploadFileOptions extends UploadTarget, RequestOptions {
  /**
   * `"auto"` (default) and `"stream"` send the File or Blob as multipart/form-data, streamed by the
   * runtime from disk: any size the service accepts, and its bytes never enter wasm memory.
   * `"base64"` sends it as a data URL (at most 10 MB of file, refused with `ValidationError` rule
   * `max_size` otherwise), keeping the File's name unless `fileName` is given.
   * Without `fileName`, the stream keeps the File's own name; a nameless Blob is sent without one,
   * and the service makes up a name (so two nameless Blobs never overwrite each other).
   */
  method?: "auto" | "stream" | "base64";
  /**
   * Refuses, before sending, a file whose first bytes are not audio (WAV, MP3 with or without ID3,
   * FLAC, OGG, M4A/MP4, AAC ADTS, WebM, AIFF), with `ValidationError` (field `file`, rule `type`):
   * the operations that use an upload charge their credits before they find it is not audio.
   */
  requireAudio?: boolean;
  /**
   * Called as the bytes go out, with `{ loaded, total }` in bytes of the file, increasing, the last
   * call with `loaded === total`. In browsers and workers this makes the upload use
   * `XMLHttpRequest` (fetch cannot report upload progress). In Node, which has no
   * `XMLHttpRequest`, the upload uses fetch and `onProgress` is called once, at the end, with
   * `loaded === total`. Exceptions thrown by the callback are ignored.
   */
  onProgress?: (progress: UploadProgress) => void;
  /** Timeout of each attempt, in milliseconds. Default: the client's `uploadTimeoutMs` (600000). */
  timeoutMs?: number;
}

/** Options of `uploadBase64`. */
export interface UploadBase64Options extends UploadTarget, RequestOptions {
  /**
   * MIME type sent in the data URL, so that the service names and types the file right. Default:
   * the data URL's own type, else one sniffed from the first bytes (WAV, MP3, OGG, FLAC, MP4/M4A,
   * PNG, JPEG, GIF, WebP, PDF, text).
   */
  mimeType?: string;
  /** As in `uploadFile` (field `data`). */
  requireAudio?: boolean;
  /** As in `uploadFile` (the bytes sent are Base64 text). */
  onProgress?: (progress: UploadProgress) => void;
  /** Timeout of each attempt, in milliseconds. Default: the client's `uploadTimeoutMs` (600000). */
  timeoutMs?: number;
}

/** Options of `uploadFromUrl`. */
export interface UploadFromUrlOptions extends UploadTarget, RequestOptions {
  /** Timeout of each attempt, in milliseconds. Default: the client's `uploadTimeoutMs` (600000). */
  timeoutMs?: number;
}

export interface Client {
  /**
   * Uploads a `File` (from `<input type=file>` or drag and drop) or a `Blob`, as a multipart
   * stream by default. Refuses before sending, with `ValidationError`: anything but a File or Blob
   * (`file`, rule `type`), an empty file (`not_empty`), an unsafe `uploadPath` or `fileName`
   * (`safe_path`), and with `method: "base64"` a file over 10 MB (`max_size`).
   * Rejects with `ApiError`, `NetworkError`, `TimeoutError` or `AbortError` (via `signal`, which
   * stops the upload in flight; the service then stores nothing).
   *
   * @example
   * const file = input.files[0];
   * const stored = await client.uploadFile(file, {
   *   uploadPath: "stems",
   *   onProgress: ({ loaded, total }) => (bar.value = loaded / total),
   * });
   * await client.addInstrumental({ uploadUrl: stored.downloadUrl, ... });
   */
  uploadFile(file: Blob, options?: UploadFileOptions): Promise<UploadedFile>;
  /**
   * Uploads Base64 text, a `data:<mime>;base64,<data>` URL, a `Uint8Array` (or any ArrayBuffer
   * view, such as Node's `Buffer`) or an `ArrayBuffer`, of at most 10 MB of file: larger ones are
   * refused before sending (`ValidationError`, field `data`, rule `max_size`); use `uploadFile`.
   * Text is measured and checked without being decoded; bytes are encoded with the runtime's
   * native `toBase64` (or Node's `Buffer`) where it exists.
   */
  uploadBase64(data: string | Uint8Array | ArrayBuffer | ArrayBufferView, options?: UploadBase64Options): Promise<UploadedFile>;
  /**
   * Has the upload host download a public http or https file (within 30 s; at most 100 MB
   * recommended) and store it. Without `fileName` the name comes from the URL. A non-http(s) URL
   * is refused before sending (`ValidationError`, field `fileUrl`, rule `url`).
   */
  uploadFromUrl(fileUrl: string | URL, options?: UploadFromUrlOptions): Promise<UploadedFile>;
}
