// README section "Beyond a song", run by readme-examples.test.mjs: stems, their MIDI notes, a
// persona that sings the next song, and fresh links for expired ones.
import { Client } from "tunesmith";

const client = new Client({ apiKey: process.env.TUNESMITH_API_KEY, baseUrl: process.env.TUNESMITH_BASE_URL });
const callBackUrl = "https://example.com/callbacks";
const song = await client.generate(
  { customMode: true, instrumental: false, model: "V5", callBackUrl, prompt: "[Verse]\nNeon rain", style: "synthwave", title: "Neon" },
  { wait: true },
);
const track = song.tracks[0];

// README:studio:start
// Stems, then the notes each stem plays.
const stems = await client.separateVocals(
  { taskId: song.taskId, audioId: track.id, type: "split_stem", callBackUrl },
  { wait: true },
);
const bass = stems.response.originData.find((s) => s.stem_type_group_name === "Bass") ?? stems.response.originData[0];
const midi = await client.generateMidi({ taskId: stems.taskId, audioId: bass.id, callBackUrl }, { wait: true });
for (const { name, notes } of midi.midiData.instruments) {
  console.log(name, notes.length, "notes, first pitch", notes[0].pitch);
}

// A persona from the track, then a new song it sings (personas need custom mode).
const { personaId } = await client.generatePersona({
  taskId: song.taskId, audioId: track.id, name: "Neon voice", description: "Breathy synthwave vocals",
  vocalStart: 0, vocalEnd: Math.min(30, Math.floor(track.duration)),
});
const next = await client.generate(
  { customMode: true, instrumental: false, model: "V5", callBackUrl, personaId,
    prompt: "[Verse]\nCity lights", style: "synthwave", title: "Neon II" },
  { wait: true },
);
console.log(next.state, next.tracks.length);

// Links expire: recovery gives fresh ones for an old task.
const recovered = await client.recoverAudio({ sunoTaskId: song.taskId, callBackUrl }, { wait: true });
console.log("recovered", recovered.tracks.map((t) => t.status).join(" "));
// README:studio:end
