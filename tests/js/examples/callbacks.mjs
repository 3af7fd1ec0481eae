// README section "Callbacks": a receiver for the callBackUrl, run by readme-examples.test.mjs, which
// then creates a task calling back here and posts one delivery twice.
import { once } from "node:events";
import { Client } from "tunesmith";

// README:callbacks:start
import { createServer } from "node:http";
import { CallbackDeduper, parseCallback } from "tunesmith";

const seen = new CallbackDeduper(); // the service may deliver a stage more than once

/** @param {import("tunesmith").CallbackEvent} event */
async function handle(event) {
  if (event.family === "music") console.log(event.taskId, event.stage, event.tracks.length);
  if (event.family === "wav") console.log(event.taskId, "wav", event.audioWavUrl);
}

const server = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  let event;
  try {
    event = parseCallback(Buffer.concat(chunks));
  } catch {
    return res.writeHead(400).end(); // not a callback of the service
  }
  try {
    if (seen.isNew(event)) await handle(event);
    res.writeHead(200).end(); // within 15 s, or the delivery counts as failed
  } catch {
    seen.forget(event); // let the redelivery be handled
    res.writeHead(500).end();
  }
});
server.listen(process.env.PORT ?? 3000);
// README:callbacks:end

await once(server, "listening");
const callBackUrl = `http://127.0.0.1:${server.address().port}/callbacks`;
const client = new Client({ apiKey: process.env.TUNESMITH_API_KEY, baseUrl: process.env.TUNESMITH_BASE_URL });
const { taskId } = await client.generate({ customMode: false, instrumental: true, model: "V6", prompt: "Rain on a tin roof", callBackUrl });
await client.waitForTask(taskId, { minIntervalMs: 100, maxIntervalMs: 300 });
// The complete callback follows the state change; give it a moment, then deliver it again.
await new Promise((r) => setTimeout(r, 1500));
const again = { code: 200, msg: "All generated successfully.", data: { callbackType: "complete", task_id: taskId, data: [] } };
const res = await fetch(callBackUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(again) });
const bad = await fetch(callBackUrl, { method: "POST", body: "not json" });
console.log("redelivery", res.status, "malformed", bad.status);
server.close();
