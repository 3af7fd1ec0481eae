// A Worker that calls the service itself, with its own key (a secret: `wrangler secret put
// TUNESMITH_API_KEY`): POST /songs {prompt} starts an instrumental, GET /songs/<taskId> reads it.
import { Client, ValidationError } from "tunesmith";

export default {
  async fetch(request, env) {
    const client = new Client({
      apiKey: env.TUNESMITH_API_KEY,
      baseUrl: env.TUNESMITH_BASE_URL, // unset for the real service
      uploadUrl: env.TUNESMITH_UPLOAD_URL,
    });
    const url = new URL(request.url);
    try {
      if (request.method === "POST" && url.pathname === "/songs") {
        const { prompt } = await request.json();
        const { taskId } = await client.generate({
          customMode: false,
          instrumental: true,
          model: "V4_5",
          prompt,
          callBackUrl: env.CALLBACK_URL,
        });
        return Response.json({ taskId });
      }
      const taskId = /^\/songs\/([\w-]+)$/.exec(url.pathname)?.[1];
      if (request.method === "GET" && taskId) {
        const task = await client.getTask({ taskId });
        const tracks = task.tracks.map(({ title, duration, audioUrl }) => ({ title, duration, audioUrl }));
        return Response.json({ state: task.state, stage: task.stage, tracks });
      }
      return Response.json({ error: "not found" }, { status: 404 });
    } catch (error) {
      // Refused before the network, with the field named: the caller's mistake, not ours.
      if (error instanceof ValidationError) {
        return Response.json({ error: error.message, field: error.field }, { status: 400 });
      }
      throw error;
    }
  },
};
