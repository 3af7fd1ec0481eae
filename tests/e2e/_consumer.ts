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
  // @ts-expect-error: not a model
  await client.generate({ customMode: false, instrumental: true, model: "V7", callBackUrl: "c", prompt: "p" });
}
