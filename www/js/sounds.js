// Sounds and loops: `generateSounds` with a prompt, the model the description allows, a tempo, a
// key and the loop switch. The task is followed in "Your song" like a song; a looped sound plays
// with `<audio loop>` there, its tempo and key shown on the track (players.js reads them back
// from the task's own record).
import { $, shortTitle } from "./dom.js";
import { callOptions } from "./service.js";
import { on, state } from "./store.js";
import { checkTool, collectFields, runTool, toolFields, toolForm } from "./studio.js";
import { openTask } from "./task.js";

const FIELDS = ["prompt", "soundTempo", "soundKey", "model", "soundLoop"];
const form = () => $("#sounds-form");
let described = null;

function render() {
  described = toolFields($("#sounds-fields"), "generateSounds", {
    show: FIELDS, prefix: "sounds-", wide: ["prompt"],
    labels: { prompt: "What the sound is", soundTempo: "Tempo (BPM)", soundKey: "Key", model: "Model", soundLoop: "Seamless loop" },
    values: { prompt: "Dusty boom-bap drum loop with vinyl crackle", soundTempo: "92", soundKey: "Am", soundLoop: true },
  });
}

function make() {
  return runTool({ button: $("#sounds-go"), status: $("#sounds-status"), form: form() }, async (say) => {
    const request = { ...collectFields(form(), described, FIELDS), callBackUrl: state.settings.callBackUrl };
    await checkTool("generateSounds", request, described);
    const created = await state.client.generateSounds(request, callOptions());
    const what = [request.soundTempo ? `${request.soundTempo} BPM` : null, request.soundKey, request.soundLoop ? "looped" : null].filter(Boolean).join(" · ");
    say(`Making the sound${what ? ` (${what})` : ""}: it plays in Your song.`);
    await openTask(created.taskId, {
      op: "generateSounds", title: shortTitle(request.prompt, 60), created: true,
      sound: { loop: request.soundLoop === true, tempo: request.soundTempo ?? null, key: request.soundKey ?? null },
    });
    if (state.task?.id === created.taskId) say(`Done${what ? ` (${what})` : ""}: it plays in Your song.`);
  });
}

export function initSounds() {
  toolForm(form(), make);
  on("service", render);
}
