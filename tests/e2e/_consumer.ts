// A TypeScript consumer of the installed package: `tsc --noEmit --strict` must accept every line,
// and every `@ts-expect-error` must catch a real mistake (else tsc reports it unused).
import {
  Client,
  ApiError,
  TaskFailedError,
  ValidationError,
  type AddInstrumentalRequest,
  type MusicTask,
  type Track,
  type TaskState,
} from "tunesmith";

const client = new Client({
  baseUrl: "https://music.example.com/api-proxy",
  // Short-lived keys from the app's own backend.
  apiKey: async () => (await (await fetch("/api/music-key")).json()).key as string,
});

export async function accompany(uploadUrl: string, signal: AbortSignal): Promise<Track[]> {
  const request: AddInstrumentalRequest = {
    uploadUrl,
    title: "Night drive",
    tags: "synthwave, warm pads",
    negativeTags: "metal",
    callBackUrl: "https://example.com/callbacks",
    styleWeight: 0.65,
    variety: 2,
    model: "V6",
  };
  const { taskId } = await client.addInstrumental(request, { signal });
  const task: MusicTask = await client.getTask({ taskId });
  const state: TaskState = task.state;
  if (state === "failed") throw new Error(task.errorMessage ?? "failed");
  const first: Track | undefined = task.tracks[0];
  const seconds: number | undefined = first?.duration;
  void seconds;
  return task.tracks;
}

export function describe(error: unknown): string {
  if (error instanceof ValidationError) return `${error.field}: ${error.rule}`;
  if (error instanceof ApiError) return `${error.kind} (${error.code}) after ${error.attempts} attempt(s)`;
  if (error instanceof TaskFailedError) return `${error.taskStatus}: ${error.errorMessage}`;
  return String(error);
}

export async function mistakes(): Promise<void> {
  // @ts-expect-error: variety is 0 to 4
  await client.addInstrumental({ uploadUrl: "u", title: "t", tags: "x", negativeTags: "y", callBackUrl: "c", variety: 7 });
  // @ts-expect-error: title is required
  await client.addInstrumental({ uploadUrl: "u", tags: "x", negativeTags: "y", callBackUrl: "c" });
  // @ts-expect-error: a model is a name (any name since V6: the known ones, or one the service added since)
  await client.generate({ customMode: false, instrumental: true, model: 7, callBackUrl: "c", prompt: "p" });
  // A model this package has not heard of yet is a string like any other.
  await client.generate({ customMode: false, instrumental: true, model: "V7", callBackUrl: "c", prompt: "p" });
}

// Through a companion, creates need no callBackUrl: the companion sets its own.
const page = new Client({ companionUrl: "https://app.example/tunesmith", headers: { "x-session": "token" } });

export async function throughCompanion(): Promise<string> {
  const song = await page.generate(
    { customMode: false, instrumental: true, model: "V4_5", prompt: "lo-fi beat for studying" },
    { wait: { onProgress: (t: MusicTask) => console.log("stage:", t.stage) } },
  );
  const created = await page.generateLyrics({ prompt: "rain on the window" });
  const lyrics = await page.waitForLyrics(created);
  // @ts-expect-error: without a companion, the service needs the callback URL
  await client.generate({ customMode: false, instrumental: true, model: "V4_5", prompt: "p" });
  return `${song.tracks.length} ${lyrics.response.lyricsData.length}`;
}

// A waiter resolves only with a succeeded task: what success fills in needs no null check.
export async function afterWaiting(taskId: string, audioId: string): Promise<string[]> {
  const callBackUrl = "https://example.com/callbacks";
  const song = await client.waitForTask(taskId);
  const done: "complete" = song.stage;
  const state: "succeeded" = song.state;
  const cover = await client.generateCover({ taskId, callBackUrl }, { wait: true });
  const wav = await client.convertToWav({ taskId, audioId, callBackUrl }, { wait: true });
  const lyrics = await client.generateLyrics({ prompt: "p", callBackUrl }, { wait: true });
  const stems = await client.separateVocals({ taskId, audioId, callBackUrl }, { wait: true });
  const video = await client.generateVideo({ taskId, audioId, callBackUrl }, { wait: true });
  const midi = await client.generateMidi({ taskId: stems.taskId, audioId: stems.response.originData[0].id, callBackUrl, wait: true });
  const recovery = await client.recoverAudio({ sunoTaskId: taskId, callBackUrl }, { wait: true });
  const phrase = await client.waitForVoiceValidation(taskId);
  const voice = await client.waitForVoice(taskId);
  return [
    done,
    state,
    cover.response.images[0],
    cover.completeTime,
    wav.response.audioWavUrl,
    lyrics.response.lyricsData[0].text,
    String(stems.response.vocalUrl),
    video.response.videoUrl,
    midi.midiData.instruments[0].name,
    midi.completeTime,
    recovery.tracks[0].status,
    phrase.validateInfo,
    voice.voiceId,
  ];
}

export async function beforeSuccess(taskId: string): Promise<void> {
  const record = await client.getMidi({ taskId });
  // @ts-expect-error: a record read before the end may have no notes yet
  void record.midiData.instruments;
}
