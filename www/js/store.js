// The page's state, in one place: panels read `state`, change it only through `set`, and
// subscribe with `on` to the parts they show.

export const state = {
  /** Applied settings: baseUrl, uploadUrl, apiKey, callBackUrl; `client` is built from them. */
  settings: null,
  client: null,
  /** A service answer to simulate on the next request (an envelope code), or "". */
  emulateCode: "",
  /** The emulator's `/openapi.json`, or null when the music host does not serve one. */
  service: null,
  /** The uploaded source file (`UploadedFile`), or null. */
  upload: null,
  /** The operation shown in the form, and the drafts of the others. */
  op: null,
  drafts: {},
  /** A generated track picked as the source of an operation ("Extend this"): its id. */
  chosenTrack: null,
  /** The task followed in the task panel: { id, op, started, abort, tracks: Map<id, Track> }. */
  task: null,
  /**
   * This browser's music tasks, newest first: [{ id, op, title, at, covers?, wavs? }], with what was
   * made for each (its cover images; its WAV files by track id), shown again when it is reopened.
   */
  history: [],
};

const listeners = new Map();

/** Sets one key and tells its subscribers (even when the value is the same object, changed). */
export function set(key, value) {
  if (!(key in state)) throw new Error(`store: unknown key ${key}`);
  state[key] = value;
  for (const fn of listeners.get(key) ?? []) fn(value);
}

export function on(key, fn) {
  if (!listeners.has(key)) listeners.set(key, new Set());
  listeners.get(key).add(fn);
}

/** This browser's entry for music task `taskId` (history), or null. */
export const kept = (taskId) => state.history.find((h) => h.id === taskId) ?? null;

/** Adds what was made for one of this browser's tasks (`{ covers }`, `{ wavs }`) to its entry. */
export function keep(taskId, patch) {
  if (!kept(taskId)) return;
  set("history", state.history.map((h) => (h.id === taskId ? { ...h, ...patch } : h)));
}
