// One smoke check of the installed package, run unchanged in Node, a plain page, a Web Worker and a
// Vite build: each environment imports `tunesmith` its own way and passes the module in.
export async function smoke(ts, { music, upload, key }) {
  const { Client, ValidationError, ApiError, TunesmithError } = ts;
  const client = new Client({ apiKey: key, baseUrl: music, uploadUrl: upload, dangerouslyAllowBrowser: true });
  const out = {};

  out.credits = (await client.getCredits()).credits;

  // Refused before the network, with the field named.
  try {
    await client.addInstrumental({ uploadUrl: "https://example.com/a.mp3", title: "t", tags: "x", negativeTags: "y", callBackUrl: `${music}/inbox/smoke`, styleWeight: 1.5 });
  } catch (error) {
    out.validation = error instanceof ValidationError && error instanceof TunesmithError && error instanceof Error ? error.field : String(error);
  }

  // A real round trip: upload a tiny WAV, add an instrumental, wait for it.
  const wav = tinyWav();
  const file = await client.uploadBase64(wav, { fileName: "smoke.wav", mimeType: "audio/wav", uploadPath: "smoke" });
  out.uploaded = file.fileSize === wav.byteLength && file.mimeType;
  const { taskId } = await client.addInstrumental({
    uploadUrl: file.downloadUrl, title: "Smoke", tags: "lo-fi", negativeTags: "metal", callBackUrl: `${music}/inbox/smoke`,
  });
  const task = await client.waitForTask(taskId, { minIntervalMs: 100, maxIntervalMs: 400, timeoutMs: 60000 });
  out.state = task.state;
  out.tracks = task.tracks.length;
  out.audio = typeof task.tracks[0]?.audioUrl === "string" && task.tracks[0].audioUrl.startsWith("http");

  // A service error is an ApiError with a kind.
  try {
    await client.getTask({ taskId }, { headers: { "X-Emulate-Code": "455" }, maxRetries: 0 });
  } catch (error) {
    out.apiError = error instanceof ApiError ? error.kind : String(error);
  }
  return out;
}

/** The expected result of `smoke`, whatever the environment. */
export const EXPECTED = { validation: "styleWeight", uploaded: "audio/wav", state: "succeeded", tracks: 2, audio: true, apiError: "maintenance" };

function tinyWav() {
  const samples = 2205;
  const bytes = new Uint8Array(44 + samples * 2);
  const view = new DataView(bytes.buffer);
  const text = (o, s) => [...s].forEach((c, i) => view.setUint8(o + i, c.charCodeAt(0)));
  text(0, "RIFF"); view.setUint32(4, 36 + samples * 2, true); text(8, "WAVEfmt ");
  view.setUint32(16, 16, true); view.setUint16(20, 1, true); view.setUint16(22, 1, true);
  view.setUint32(24, 22050, true); view.setUint32(28, 44100, true); view.setUint16(32, 2, true);
  view.setUint16(34, 16, true); text(36, "data"); view.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++) view.setInt16(44 + i * 2, Math.round(8000 * Math.sin(i / 8)), true);
  return bytes;
}
