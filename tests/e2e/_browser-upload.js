// The README's browser upload, run in a plain page by package.mjs (the test picks the file).
import { Client } from "tunesmith";

const env = Object.fromEntries(new URLSearchParams(location.search));
const client = new Client({ apiKey: env.key, baseUrl: env.music, uploadUrl: env.upload, dangerouslyAllowBrowser: true });

// README:browser-upload:start
const input = /** @type {HTMLInputElement} */ (document.querySelector("input[type=file]"));
const bar = /** @type {HTMLProgressElement} */ (document.querySelector("progress"));

input.addEventListener("change", async () => {
  if (!input.files?.length) return; // the picker was cancelled
  const file = await client.uploadFile(input.files[0], {
    onProgress: ({ loaded, total }) => (bar.value = loaded / total),
  });
  show(`${file.originalName}: ${file.fileSize} bytes, ${file.mimeType}, kept until ${file.expiresAt}`);
});
// README:browser-upload:end

window.__ready = true;

function show(text) {
  window.__result = { text, progress: bar.value };
}
