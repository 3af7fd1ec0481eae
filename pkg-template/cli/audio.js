// Whether the file an audio operation points at is audio, read from its first bytes before the task
// is created: the service takes the credits of an add-instrumental whose upload is a text file, and
// fails the task only afterwards. Containers are taken at their word (an MP4 or a WebM may hold
// audio only); what starts as none of them is refused, unless `--skip-audio-check`.

/** The request fields that take the URL of an audio file, per operation. */
const AUDIO_FIELDS = {
  uploadCover: ["uploadUrl"],
  uploadExtend: ["uploadUrl"],
  addInstrumental: ["uploadUrl"],
  addVocals: ["uploadUrl"],
  replaceSection: ["uploadUrl"],
  mashup: ["uploadUrlList"],
  validateVoice: ["voiceUrl"],
  createVoice: ["verifyUrl"],
};

const ascii = (bytes, at, text) => [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/** The audio format the bytes start as, or null: WAV, MP3 (or AAC in ADTS), FLAC, Ogg, MP4/M4A, WebM, AIFF, CAF, AMR, ASF, AU. */
export function audioFormat(b) {
  if ((ascii(b, 0, "RIFF") || ascii(b, 0, "RF64") || ascii(b, 0, "BW64")) && ascii(b, 8, "WAVE")) return "wav";
  if (ascii(b, 0, "ID3")) return "mp3";
  if (b[0] === 0xff && (b[1] & 0xe0) === 0xe0) return (b[1] & 0x06) === 0 ? "aac" : "mp3";
  if (ascii(b, 0, "fLaC")) return "flac";
  if (ascii(b, 0, "OggS")) return "ogg";
  if (ascii(b, 4, "ftyp")) return "mp4";
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return "webm";
  if (ascii(b, 0, "FORM") && (ascii(b, 8, "AIFF") || ascii(b, 8, "AIFC"))) return "aiff";
  if (ascii(b, 0, "caff")) return "caf";
  if (ascii(b, 0, "#!AMR")) return "amr";
  if ([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11].every((x, i) => b[i] === x)) return "asf";
  if (ascii(b, 0, ".snd")) return "au";
  return null;
}

/** What bytes that are not audio look like, for the message. */
function looksLike(b) {
  if (b.length === 0) return "an empty file";
  if (ascii(b, 0, "%PDF")) return "a PDF";
  if (ascii(b, 0, "\x89PNG") || (b[0] === 0xff && b[1] === 0xd8) || ascii(b, 0, "GIF8")) return "an image";
  if (ascii(b, 0, "PK")) return "a ZIP archive";
  if (ascii(b, 0, "RIFF")) return "a RIFF file that is not WAVE";
  if (/^\s*</.test(new TextDecoder().decode(b.subarray(0, 16)))) return "HTML or XML";
  const text = b.every((x) => x === 9 || x === 10 || x === 13 || (x >= 32 && x !== 127));
  return text ? "text" : "none of the audio formats";
}

export class NotAudioError extends Error {
  constructor(field, url, what) {
    super(
      `${field} ${url} is not audio (it starts as ${what}): the service would take the task's credits and then fail it. ` +
        "--skip-audio-check sends it anyway",
    );
    this.name = "NotAudioError";
    this.kind = "validation";
    this.field = field;
    this.rule = "audio";
  }
}

/** The first bytes at `url` (at most 64), or null when they cannot be read: then the service decides. */
async function firstBytes(url, signal) {
  let response;
  try {
    response = await fetch(url, { headers: { range: "bytes=0-63" }, signal });
  } catch (e) {
    if (signal?.aborted) throw e;
    return null;
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    return null;
  }
  const chunks = [];
  let length = 0;
  const reader = response.body.getReader();
  while (length < 64) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
  }
  await reader.cancel().catch(() => {});
  return Buffer.concat(chunks).subarray(0, 64);
}

/** Refuses, with a `NotAudioError`, a request of an audio operation whose file is not audio. */
export async function checkAudio(op, request, signal) {
  for (const field of AUDIO_FIELDS[op.name] ?? []) {
    const urls = [request[field]].flat().filter((u) => typeof u === "string" && /^https?:\/\//i.test(u));
    for (const url of urls) {
      const bytes = await firstBytes(url, signal);
      if (bytes && !audioFormat(bytes)) throw new NotAudioError(field, url, looksLike(bytes));
    }
  }
}
