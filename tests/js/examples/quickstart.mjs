// README quickstart, run by readme-examples.test.mjs against the emulator, with the hum.wav the
// README tells to copy (docs/hum.wav).
// README:quickstart:start
import { readFile } from "node:fs/promises";
import { Client } from "tunesmith";

const client = new Client({
  apiKey: process.env.TUNESMITH_API_KEY,
  // Omit both URLs for the real service; these point at the local emulator.
  baseUrl: process.env.TUNESMITH_BASE_URL,
  uploadUrl: process.env.TUNESMITH_UPLOAD_URL,
});

// 1. Upload a vocal stem or a hummed melody (kept 3 days).
const hum = new File([await readFile("hum.wav")], "hum.wav", { type: "audio/wav" });
const file = await client.uploadFile(hum);

// 2. Ask for an accompaniment and wait for it, stage by stage.
const task = await client.addInstrumental(
  {
    uploadUrl: file.downloadUrl,
    title: "Night drive",
    tags: "synthwave, warm pads, slow groove",
    negativeTags: "heavy metal",
    callBackUrl: "https://example.com/callbacks",
  },
  { wait: { onProgress: (t) => console.log("stage:", t.stage) } },
);

// 3. Two tracks, typed: title, tags, duration, audioUrl, imageUrl...
for (const track of task.tracks) console.log(track.title, track.duration, track.audioUrl);
// README:quickstart:end
