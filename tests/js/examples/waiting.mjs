// README section "Waiting for tasks", run by readme-examples.test.mjs.
import { Client } from "tunesmith";

const client = new Client({ apiKey: process.env.TUNESMITH_API_KEY, baseUrl: process.env.TUNESMITH_BASE_URL });

// README:wait:start
/** @type {import("tunesmith").GenerateRequest} */
const request = {
  customMode: false, // only a description; the service writes lyrics, style and title
  instrumental: true,
  model: "V6",
  prompt: "A calm piano piece",
  callBackUrl: "https://example.com/callbacks",
};
const { taskId } = await client.generate(request);

// Polling may jump from `text` straight to `complete`, so act on "a track can stream now",
// not on the `first` stage itself: this cannot miss it.
let playing = false;
const task = await client.waitForTask(taskId, {
  signal: AbortSignal.timeout(5 * 60_000), // or a Stop button's AbortController
  onProgress: (t) => {
    if (!playing && t.tracks.length > 0) {
      playing = true;
      console.log("play it now:", t.tracks[0].streamAudioUrl);
    }
  },
});
console.log(task.state, task.tracks.length); // "succeeded" 2
// README:wait:end

// README:watch:start
for await (const t of client.watchTask(await client.generate(request))) {
  console.log(t.stage, t.tracks.length); // pending 0, text 0, first 1, complete 2
}
// README:watch:end
