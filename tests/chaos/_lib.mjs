// Helpers of the chaos scripts (a name starting with `_` is not a script: xtask skips it).
// Every script reads the emulator from the same environment as tests/js, takes its scale from
// CHAOS_SCALE (1 = full), prints one `CHAOS {...}` line and exits non-zero when a goal is missed.
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export const env = {
  music: process.env.TUNESMITH_TEST_MUSIC_URL,
  upload: process.env.TUNESMITH_TEST_UPLOAD_URL,
  key: process.env.TUNESMITH_TEST_API_KEY,
  spare: process.env.TUNESMITH_TEST_SPARE_KEY,
  pkg: process.env.TUNESMITH_PKG ?? resolve(ROOT, "pkg"),
};

/** CHAOS_SCALE: 1 runs the full figures, 0.01 a short version. */
export function scale() {
  const s = Number(process.env.CHAOS_SCALE ?? 1);
  return Number.isFinite(s) && s > 0 ? s : 1;
}

/** `full` scaled, at least `min`. */
export const scaled = (full, min = 1) => Math.max(min, Math.round(full * scale()));

export function requireEmulator(name) {
  if (!env.music || !env.upload || !env.key) {
    console.error(`${name}: TUNESMITH_TEST_MUSIC_URL, TUNESMITH_TEST_UPLOAD_URL and TUNESMITH_TEST_API_KEY are required`);
    process.exit(2);
  }
}

/** The built package's Node entry, as tests/js import it. */
export const importPackage = () => import(pathToFileURL(resolve(env.pkg, "node.js")).href);

/** A goal: `met` decided by `ok(value, target)` (default: value <= target). */
export function goal(value, target, ok = (v, t) => v <= t) {
  return { value, target, met: Boolean(ok(value, target)) };
}
export const atLeast = (value, target) => goal(value, target, (v, t) => v >= t);

/** Prints the one CHAOS line; returns whether every goal was met (the exit code follows it). */
export function report(name, figures, goals) {
  console.log(`CHAOS ${JSON.stringify({ name, figures, goals })}`);
  const ok = Object.values(goals).every((g) => g.met);
  process.exitCode = ok ? 0 : 1;
  return ok;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const PENDING = Symbol("pending");

/**
 * Runs `thunk` and classifies how it ended: `{ how: "sync-throw" | "resolved" | "rejected" | "pending",
 * value | error }`. A Promise still unsettled after `ms` is `pending`.
 */
export async function settle(thunk, ms) {
  let result;
  try {
    result = thunk();
  } catch (error) {
    return { how: "sync-throw", error };
  }
  if (!result || typeof result.then !== "function") return { how: "resolved", value: result };
  let timer;
  const timeout = new Promise((r) => (timer = setTimeout(() => r(PENDING), ms)));
  try {
    const value = await Promise.race([result, timeout]);
    return value === PENDING ? { how: "pending" } : { how: "resolved", value };
  } catch (error) {
    return { how: "rejected", error };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `count` jobs `job(i)` with at most `width` in flight. */
export async function pool(count, width, job) {
  let next = 0;
  const lane = async () => {
    while (next < count) await job(next++);
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, lane));
}

/** A small deterministic PRNG (mulberry32), so that a failing case can be replayed by its index. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.int = (n) => Math.floor(next() * n);
  next.pick = (list) => list[Math.floor(next() * list.length)];
  next.chance = (p) => next() < p;
  return next;
}

/** A short description of a thrown value, for the examples a report keeps. */
export function describe(error) {
  try {
    if (error instanceof Error) return `${error.constructor?.name ?? "Error"}: ${String(error.message).slice(0, 160)}`;
    return `${typeof error}: ${String(error).slice(0, 160)}`;
  } catch {
    return `${typeof error} (not printable)`;
  }
}

/** Keeps the first few examples per key. */
export class Examples {
  constructor(per = 3) {
    this.per = per;
    this.map = {};
  }
  add(key, text) {
    const list = (this.map[key] ??= []);
    if (list.length < this.per) list.push(text);
  }
  toJSON() {
    return this.map;
  }
}

// ---- The operations, with valid requests -----------------------------------------------------

/** Every method of `Client` that sends a request, with a valid request built from `ids`. */
export function operations(ids) {
  const cb = ids.callBackUrl;
  const music = { customMode: false, instrumental: true, model: "V6", prompt: "chaos", callBackUrl: cb };
  return {
    generate: music,
    extend: { defaultParamFlag: false, audioId: ids.audioId, callBackUrl: cb },
    uploadCover: { uploadUrl: ids.downloadUrl, ...music },
    uploadExtend: { uploadUrl: ids.downloadUrl, defaultParamFlag: false, model: "V6", callBackUrl: cb },
    addInstrumental: { uploadUrl: ids.downloadUrl, title: "t", negativeTags: "n", tags: "calm", callBackUrl: cb },
    addVocals: { uploadUrl: ids.downloadUrl, callBackUrl: cb, prompt: "p", title: "t", negativeTags: "n", style: "pop" },
    boostStyle: { content: "calm piano" },
    getTask: { taskId: ids.taskId },
    getCredits: {},
    generateCover: { taskId: ids.taskId, callBackUrl: cb },
    getCover: { taskId: ids.coverId ?? ids.taskId },
    convertToWav: { taskId: ids.taskId, audioId: ids.audioId, callBackUrl: cb },
    getWav: { taskId: ids.wavId ?? ids.taskId },
    generateLyrics: { prompt: "rain", callBackUrl: cb },
    getLyrics: { taskId: ids.lyricsId ?? ids.taskId },
    getTimestampedLyrics: { taskId: ids.taskId, audioId: ids.audioId },
    separateVocals: { taskId: ids.taskId, audioId: ids.audioId, callBackUrl: cb },
    getVocalSeparation: { taskId: ids.separationId ?? ids.taskId },
    generateVideo: { taskId: ids.taskId, audioId: ids.audioId, callBackUrl: cb },
    getVideo: { taskId: ids.videoId ?? ids.taskId },
    generateSounds: { prompt: "rain on a tin roof", model: "V5", soundLoop: true, soundTempo: 90, callBackUrl: cb },
    replaceSection: {
      taskId: ids.taskId, audioId: ids.audioId, prompt: "p", tags: "jazz", title: "t", fullLyrics: "l",
      infillStartS: 1, infillEndS: 7, callBackUrl: cb,
    },
    mashup: { uploadUrlList: [ids.downloadUrl, ids.secondUrl ?? ids.downloadUrl], customMode: false, model: "V5", prompt: "mix", callBackUrl: cb },
    generatePersona: { taskId: ids.taskId, audioId: ids.audioId, name: "n", description: "d", vocalStart: 0, vocalEnd: 12 },
    generateMidi: { taskId: ids.separationId ?? ids.taskId, audioId: ids.stemId, callBackUrl: cb },
    getMidi: { taskId: ids.midiId ?? ids.taskId },
    recoverAudio: { sunoTaskId: ids.taskId, callBackUrl: cb },
    getRecovery: { task_id: ids.recoveryId ?? ids.taskId },
    validateVoice: { voiceUrl: ids.voiceUrl ?? ids.downloadUrl, vocalStartS: 1, vocalEndS: 15, callBackUrl: cb },
    getVoiceValidation: { taskId: ids.voiceValidationId ?? ids.taskId },
    regenerateVoicePhrase: { taskId: ids.voiceValidationId ?? ids.taskId, calBackUrl: cb },
    createVoice: { taskId: ids.voiceValidationId ?? ids.taskId, verifyUrl: ids.voiceUrl ?? ids.downloadUrl, callBackUrl: cb },
    getVoice: { taskId: ids.voiceId ?? ids.taskId },
    checkVoice: { task_id: ids.voiceId ?? ids.taskId },
  };
}

/** The waiters and the create of their family. */
export const WAITERS = {
  waitForTask: "generate",
  waitForCover: "generateCover",
  waitForWav: "convertToWav",
  waitForLyrics: "generateLyrics",
  waitForVocalSeparation: "separateVocals",
  waitForVideo: "generateVideo",
  waitForMidi: "generateMidi",
  waitForRecovery: "recoverAudio",
  waitForVoiceValidation: "validateVoice",
  waitForVoice: "createVoice",
};

/** A short polling schedule for waiters in the scripts. */
export const FAST = { minIntervalMs: 20, maxIntervalMs: 60 };

/** A few bytes of a valid WAV file (8 kHz: 800 samples are 0.1 s), for uploads. */
export function tinyWav(samples = 800) {
  const data = samples * 2;
  const b = Buffer.alloc(44 + data);
  b.write("RIFF", 0);
  b.writeUInt32LE(36 + data, 4);
  b.write("WAVEfmt ", 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(16000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write("data", 36);
  b.writeUInt32LE(data, 40);
  return new Uint8Array(b);
}

// ---- Real answers of every operation ---------------------------------------------------------

/**
 * Runs every operation against the emulator through a recording `fetch`, and returns what came
 * back: `answers` (per operation: `{ op, method, path, status, headers, text }`), `callbacks` (the
 * bodies the emulator delivered to its inbox) and `ids` (a finished music task, a track, an upload).
 */
export async function recordAnswers(pkg, { tag = `rec-${process.pid}-${Date.now()}` } = {}) {
  const answers = [];
  const seen = new Set();
  const record = async (url, init) => {
    const response = await fetch(url, init);
    const text = await response.text();
    const path = new URL(url).pathname;
    const key = `${init?.method} ${path} ${response.status} ${text}`;
    if (!seen.has(key)) {
      seen.add(key);
      const headers = {};
      response.headers.forEach((v, k) => (headers[k] = v));
      answers.push({ method: init?.method ?? "GET", path, status: response.status, headers, text });
    }
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  const client = new pkg.Client({
    apiKey: env.key,
    baseUrl: env.music,
    uploadUrl: env.upload,
    fetch: record,
    headers: { "X-Emulator-Tag": tag },
  });
  const inbox = `chaos-${tag}`;
  const ids = { callBackUrl: `${env.music}/inbox/${inbox}` };
  const wav = tinyWav();
  const up = await client.uploadBase64(wav, { fileName: "chaos.wav", mimeType: "audio/wav" });
  ids.downloadUrl = up.downloadUrl;
  ids.secondUrl = (await client.uploadBase64(wav, { fileName: "chaos-b.wav" })).downloadUrl;
  // A custom voice wants a recording long enough to hold the singing window.
  ids.voiceUrl = (await client.uploadBase64(tinyWav(8000 * 16), { fileName: "chaos-voice.wav" })).downloadUrl;
  await client.uploadFile(new Blob([wav], { type: "audio/wav" }), { fileName: "chaos2.wav" });
  await client.uploadFromUrl(up.downloadUrl, { fileName: "chaos3.wav" }).catch(() => {});
  const task = await client.generate(operations(ids).generate, { wait: FAST });
  ids.taskId = task.taskId;
  ids.audioId = task.tracks[0].id;
  const ops = operations(ids);
  const waited = {
    generateCover: "coverId",
    convertToWav: "wavId",
    generateLyrics: "lyricsId",
    separateVocals: "separationId",
    generateVideo: "videoId",
  };
  for (const [op, idName] of Object.entries(waited)) {
    const done = await client[op](ops[op], { wait: FAST });
    ids[idName] = done.taskId;
    if (op === "separateVocals") ids.stemId = done.response?.originData?.[0]?.id;
  }
  // The families beyond a song; each step is best effort, so that one refusal leaves the others
  // recorded (an operation without a recorded answer gets a 404 from memory, still a typed error).
  const best = (f) => f().catch(() => undefined);
  ids.midiId = (await best(() => client.generateMidi(operations(ids).generateMidi, { wait: FAST })))?.taskId;
  ids.recoveryId = (await best(() => client.recoverAudio(operations(ids).recoverAudio, { wait: FAST })))?.taskId;
  ids.voiceValidationId = (await best(() => client.validateVoice(operations(ids).validateVoice, { wait: FAST })))?.taskId;
  const phrase = await best(() => client.regenerateVoicePhrase(operations(ids).regenerateVoicePhrase, { wait: FAST }));
  ids.voiceValidationId = phrase?.taskId ?? ids.voiceValidationId;
  ids.voiceId = (await best(() => client.createVoice(operations(ids).createVoice, { wait: FAST })))?.taskId;
  const after = operations(ids);
  for (const op of ["extend", "uploadCover", "uploadExtend", "addInstrumental", "addVocals", "generateSounds", "replaceSection", "mashup"]) {
    await best(() => client[op](after[op], { wait: FAST }));
  }
  for (const op of ["generatePersona", "getMidi", "getRecovery", "getVoiceValidation", "getVoice", "checkVoice"]) {
    await best(() => client[op](after[op]));
  }
  for (const op of ["boostStyle", "getTask", "getCredits", "getCover", "getWav", "getLyrics", "getTimestampedLyrics", "getVocalSeparation", "getVideo"]) {
    await client[op](after[op]);
  }
  // Failed tasks, and the service's error answers of each family.
  await client
    .generate({ ...after.generate, prompt: "emulate:GENERATE_AUDIO_FAILED" }, { wait: FAST })
    .catch(() => {});
  await client.generateLyrics({ ...after.generateLyrics, prompt: "emulate:failed" }, { wait: FAST }).catch(() => {});
  for (const code of [400, 401, 404, 405, 429, 430, 455, 500]) {
    const headers = { "X-Emulate-Code": String(code), "X-Emulate-Retry-After": "0.01" };
    await client.getTask(after.getTask, { headers, maxRetries: 0 }).catch(() => {});
    await client.generateCover(after.generateCover, { headers, maxRetries: 0 }).catch(() => {});
    await client.uploadBase64(wav, { headers, maxRetries: 0, fileName: "e.wav" }).catch(() => {});
  }
  await client.getTask({ taskId: "no-such-task" }).catch(() => {});
  // Callbacks: give the emulator a moment to deliver the last ones.
  let callbacks = [];
  for (let i = 0; i < 40; i++) {
    const list = await (await fetch(`${env.music}/inbox/${inbox}`)).json();
    callbacks = list.items.map((item) => item.body);
    if (callbacks.length >= 20) break;
    await sleep(100);
  }
  return { answers, callbacks, ids };
}

/** Whether the module at `url` is the script node was started with (not imported by a test). */
export const isMain = (url) => Boolean(process.argv[1]) && url === pathToFileURL(resolve(process.argv[1])).href;
