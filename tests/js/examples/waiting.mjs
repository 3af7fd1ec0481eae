// README section "Waiting for tasks", run by readme-examples.test.mjs.
import { Client } from "tunesmith";

const client = new Client({ apiKey: process.env.TUNESMITH_API_KEY, baseUrl: process.env.TUNESMITH_BASE_URL });
const request = { customMode: false, instrumental: true, model: "V6", prompt: "A calm piano piece", callBackUrl: "https://example.com/callbacks" };

// README:wait:start
const { taskId } = await client.generate(request);

const task = await client.waitForTask(taskId, {
  signal: AbortSignal.timeout(5 * 60_000), // or a Stop button's AbortController
  onProgress: (t) => {
    if (t.stage === "first") console.log("play it now:", t.tracks[0].streamAudioUrl);
  },
});
console.log(task.state, task.tracks.length); // "succeeded" 2
// README:wait:end

// README:watch:start
for await (const t of client.watchTask(await client.generate(request))) {
  console.log(t.stage, t.tracks.length); // pending 0, text 0, first 1, complete 2
}
// README:watch:end
