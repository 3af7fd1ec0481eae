// ---- The Client's methods ---------------------------------------------------------------------
// Declared here rather than generated, so that options are optional and each method is documented.
// Every method validates its request before the network (rejecting with `ValidationError`, nothing
// sent) and rejects with `ApiError`, `NetworkError`, `TimeoutError` or `AbortError` otherwise.
//
// Task-creating methods take `wait: true` or `wait: { ...WaitOptions }` (in the options, or in the
// request, where it is removed before sending) and then resolve with the task's final record, as the
// family's waiter does (`waitForTask`, `waitForCover`, ...), rejecting as it does. The options'
// `signal` cancels the wait too; their `timeoutMs` stays the create's own attempt timeout (the
// wait's deadline is `wait.timeoutMs`, 10 minutes by default).

export interface Client {
  /** Generates music: 2 tracks from a description, or from lyrics, style and title in custom mode. */
  generate(request: GenerateRequest, options: RequestOptions & { wait: Wait<MusicTask> }): Promise<MusicTask>;
  generate(request: GenerateRequest & { wait: Wait<MusicTask> }, options?: RequestOptions): Promise<MusicTask>;
  generate(request: GenerateRequest, options?: RequestOptions): Promise<TaskCreated>;
  /** Extends a generated track, from `continueAt` seconds with custom parameters or with the source's own. */
  extend(request: ExtendRequest, options: RequestOptions & { wait: Wait<MusicTask> }): Promise<MusicTask>;
  extend(request: ExtendRequest & { wait: Wait<MusicTask> }, options?: RequestOptions): Promise<MusicTask>;
  extend(request: ExtendRequest, options?: RequestOptions): Promise<TaskCreated>;
  /** Covers an uploaded audio in a new style. */
  uploadCover(request: UploadCoverRequest, options: RequestOptions & { wait: Wait<MusicTask> }): Promise<MusicTask>;
  uploadCover(request: UploadCoverRequest & { wait: Wait<MusicTask> }, options?: RequestOptions): Promise<MusicTask>;
  uploadCover(request: UploadCoverRequest, options?: RequestOptions): Promise<TaskCreated>;
  /** Extends an uploaded audio. */
  uploadExtend(request: UploadExtendRequest, options: RequestOptions & { wait: Wait<MusicTask> }): Promise<MusicTask>;
  uploadExtend(request: UploadExtendRequest & { wait: Wait<MusicTask> }, options?: RequestOptions): Promise<MusicTask>;
  uploadExtend(request: UploadExtendRequest, options?: RequestOptions): Promise<TaskCreated>;
  /**
   * Generates an accompaniment for an uploaded vocal stem or melody.
   *
   * @example
   * const { taskId } = await client.addInstrumental({
   *   uploadUrl: file.downloadUrl, title: "Night drive", tags: "synthwave, warm pads",
   *   negativeTags: "metal", callBackUrl: "https://example.com/callbacks",
   * });
   */
  addInstrumental(request: AddInstrumentalRequest, options: RequestOptions & { wait: Wait<MusicTask> }): Promise<MusicTask>;
  addInstrumental(request: AddInstrumentalRequest & { wait: Wait<MusicTask> }, options?: RequestOptions): Promise<MusicTask>;
  addInstrumental(request: AddInstrumentalRequest, options?: RequestOptions): Promise<TaskCreated>;
  /** Layers generated vocals over an uploaded instrumental. */
  addVocals(request: AddVocalsRequest, options: RequestOptions & { wait: Wait<MusicTask> }): Promise<MusicTask>;
  addVocals(request: AddVocalsRequest & { wait: Wait<MusicTask> }, options?: RequestOptions): Promise<MusicTask>;
  addVocals(request: AddVocalsRequest, options?: RequestOptions): Promise<TaskCreated>;
  /** Boosts a style description; answers at once. */
  boostStyle(request: BoostStyleRequest, options?: RequestOptions): Promise<StyleBoost>;
  /** Status and tracks of a music task (generate, extend, upload-cover, upload-extend, add-instrumental, add-vocals). */
  getTask(request: TaskQuery, options?: RequestOptions): Promise<MusicTask>;
  /** Remaining credits of the key. */
  getCredits(request?: Record<string, never>, options?: RequestOptions): Promise<Credits>;
  /** Generates cover images (normally 2, in different styles) for a music task. A second request for the same task is a `conflict`. */
  generateCover(request: GenerateCoverRequest, options: RequestOptions & { wait: Wait<CoverTask> }): Promise<CoverTask>;
  generateCover(request: GenerateCoverRequest & { wait: Wait<CoverTask> }, options?: RequestOptions): Promise<CoverTask>;
  generateCover(request: GenerateCoverRequest, options?: RequestOptions): Promise<TaskCreated>;
  /** Status and images of a cover task. */
  getCover(request: TaskQuery, options?: RequestOptions): Promise<CoverTask>;
  /** Converts a track to WAV. A second request for the same track is a `conflict`. */
  convertToWav(request: ConvertToWavRequest, options: RequestOptions & { wait: Wait<WavTask> }): Promise<WavTask>;
  convertToWav(request: ConvertToWavRequest & { wait: Wait<WavTask> }, options?: RequestOptions): Promise<WavTask>;
  convertToWav(request: ConvertToWavRequest, options?: RequestOptions): Promise<TaskCreated>;
  /** Status and URL of a WAV conversion. */
  getWav(request: TaskQuery, options?: RequestOptions): Promise<WavTask>;
  /** Writes lyrics from a prompt of at most 200 words. */
  generateLyrics(request: GenerateLyricsRequest, options: RequestOptions & { wait: Wait<LyricsTask> }): Promise<LyricsTask>;
  generateLyrics(request: GenerateLyricsRequest & { wait: Wait<LyricsTask> }, options?: RequestOptions): Promise<LyricsTask>;
  generateLyrics(request: GenerateLyricsRequest, options?: RequestOptions): Promise<TaskCreated>;
  /** Status and texts of a lyrics task. */
  getLyrics(request: TaskQuery, options?: RequestOptions): Promise<LyricsTask>;
  /** Lyrics aligned to the audio, word by word; answers at once. */
  getTimestampedLyrics(request: TimestampedLyricsRequest, options?: RequestOptions): Promise<TimestampedLyrics>;
  /** Separates vocals and instruments of a track into stems. */
  separateVocals(request: SeparateVocalsRequest, options: RequestOptions & { wait: Wait<VocalSeparationTask> }): Promise<VocalSeparationTask>;
  separateVocals(request: SeparateVocalsRequest & { wait: Wait<VocalSeparationTask> }, options?: RequestOptions): Promise<VocalSeparationTask>;
  separateVocals(request: SeparateVocalsRequest, options?: RequestOptions): Promise<TaskCreated>;
  /** Status and stems of a vocal separation. */
  getVocalSeparation(request: TaskQuery, options?: RequestOptions): Promise<VocalSeparationTask>;
  /** Makes a music video of a track. */
  generateVideo(request: GenerateVideoRequest, options: RequestOptions & { wait: Wait<VideoTask> }): Promise<VideoTask>;
  generateVideo(request: GenerateVideoRequest & { wait: Wait<VideoTask> }, options?: RequestOptions): Promise<VideoTask>;
  generateVideo(request: GenerateVideoRequest, options?: RequestOptions): Promise<TaskCreated>;
  /** Status and URL of a music video. */
  getVideo(request: TaskQuery, options?: RequestOptions): Promise<VideoTask>;
}
