// Presentation only: which operations the page offers, in which words, with which starting
// values. What each operation takes (fields, types, required flags, limits, enum values, docs)
// comes from the service's own description (`/openapi.json`), read by forms.js.

/** Field labels the page uses in every form; a field not named here shows its own name, spaced. */
export const LABELS = {
  title: "Title",
  negativeTags: "Leave out",
  tags: "Style, mood and instruments",
  lyrics: "Lyrics",
  duration: "Length (seconds)",
  imageUrls: "Reference images",
  videoUrls: "Reference video",
  audioUrls: "Reference audio",
  prompt: "What the song is about",
  style: "Style",
  variety: "Variety",
  vocalGender: "Vocal gender",
  model: "Model",
  styleWeight: "Style weight",
  weirdnessConstraint: "Weirdness",
  audioWeight: "Audio weight",
  customMode: "Custom mode (style, title and lyrics are mine)",
  instrumental: "Instrumental (no vocals)",
  defaultParamFlag: "Custom parameters (prompt, style, title, start)",
  audioId: "Track to extend",
  continueAt: "Start at (seconds)",
  personaId: "Persona",
  uploadUrl: "Audio file",
  callBackUrl: "Callback URL",
  content: "Style description",
};

/** Friendlier words for some enum values; other values show as they are. */
export const VALUE_LABELS = {
  vocalGender: { f: "Female", m: "Male" },
};

/** Client methods the page calls, named as a musician would. */
export const METHODS = {
  boostStyle: "Style boost",
  getCredits: "Credits check",
  getTask: "Opening the task",
  generateCover: "Cover art",
  convertToWav: "WAV conversion",
  uploadFile: "Upload",
  // The studio's tools (step 5).
  separateVocals: "Stem separation",
  getVocalSeparation: "Stem separation",
  generateMidi: "MIDI",
  getMidi: "MIDI",
  replaceSection: "Replace section",
  mashup: "Mashup",
  generateSounds: "Sounds",
  generatePersona: "Persona",
  generateVideo: "Music video",
  getVideo: "Music video",
  getTimestampedLyrics: "Timed lyrics",
  recoverAudio: "Recovery",
  getRecovery: "Recovery",
};

/** Defaults that fit the source: extending starts halfway through the chosen track. */
const fitTrack = (track) => ({
  continueAt: Number.isFinite(track?.duration) ? String(Math.floor(track.duration / 2)) : "",
  title: track?.title ? `${track.title} (extended)` : "",
});

/**
 * The tabs, in order. `source`: where the request's source comes from (`upload`: the uploaded
 * file as `uploadUrl`; `track`: a generated track as `audioId`); `values`: starting values;
 * `fit(source)`: values that depend on the chosen source; `wide`: fields shown as text areas;
 * `boost`: fields with a style-boost button; `labels`: this operation's own words for a field.
 */
export const OPERATIONS = [
  {
    name: "addInstrumental", label: "Add instrumental", source: "upload",
    values: { title: "Night drive", negativeTags: "heavy metal, harsh noise", tags: "synthwave, warm pads, slow groove", variety: "1" },
    wide: ["lyrics"], boost: ["tags"],
  },
  {
    name: "addVocals", label: "Add vocals", source: "upload",
    values: { title: "Harbour lights", negativeTags: "autotune, screaming", prompt: "Waiting for a ship at dawn, hopeful and a little sad", style: "indie folk, breathy close-mic vocals" },
    wide: ["prompt"], boost: ["style"],
    labels: { style: "Genre and vocal approach", tags: "Extra style tags" },
  },
  {
    name: "extend", label: "Extend", source: "track",
    values: { defaultParamFlag: true, prompt: "A bright bridge that lifts into the last chorus", style: "synthwave, bigger drums" },
    fit: fitTrack,
    wide: ["prompt"], boost: ["style"],
    labels: { prompt: "Prompt" },
  },
  {
    name: "generate", label: "Generate", source: null,
    values: { prompt: "A lazy summer afternoon, lo-fi, vinyl crackle, soft Rhodes", customMode: false, instrumental: false },
    wide: ["prompt", "lyrics"], boost: ["style"],
    labels: {
      prompt: "Describe the song (in custom mode: its lyrics, unless Lyrics are given)",
      customMode: "Custom mode (style, title, lyrics and length are mine)",
    },
  },
];

/** Starting positions of the sliders (the description gives their range, not a taste). */
export const SLIDERS = { styleWeight: 0.65, weirdnessConstraint: 0.35, audioWeight: 0.7 };
