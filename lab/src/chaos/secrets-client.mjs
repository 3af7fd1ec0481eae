// The secrets probe's client run: the built package with the chaos key, through successes and
// failures, printing every result and error the way an application's logs would (message,
// util.inspect, JSON, stack). `cargo xtask chaos` counts the key in everything printed.
import { inspect } from "node:util";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const pkg = await import(pathToFileURL(resolve(process.env.TUNESMITH_PKG, "node.js")).href);
const { Client } = pkg;
const key = process.env.TUNESMITH_TEST_API_KEY;
const music = process.env.TUNESMITH_TEST_MUSIC_URL;
const upload = process.env.TUNESMITH_TEST_UPLOAD_URL;

function show(label, value) {
  console.log(label, inspect(value, { depth: 8, showHidden: true, getters: true }));
  try {
    console.log(label, JSON.stringify(value));
  } catch (e) {
    console.log(label, "not JSON:", String(e));
  }
  if (value instanceof Error) console.error(label, String(value), value.stack, inspect(value.cause));
}

async function attempt(label, thunk) {
  try {
    show(`${label} resolved`, await thunk());
  } catch (error) {
    show(`${label} rejected`, error);
  }
}

const client = new Client({ apiKey: key, baseUrl: music, uploadUrl: upload });
show("client", client);
await attempt("getCredits", () => client.getCredits());
await attempt("generate (invalid)", () => client.generate({ customMode: true, model: "nope" }));
await attempt("generate and wait", () =>
  client.generate(
    { customMode: false, instrumental: true, model: "V6", prompt: "secret scan", callBackUrl: `${music}/inbox/secrets` },
    { wait: { timeoutMs: 20000 } },
  ));
await attempt("uploadBase64", () => client.uploadBase64("data:audio/wav;base64,UklGRiQAAABXQVZF", { fileName: "s.wav" }));
await attempt("uploadBase64 (bad)", () => client.uploadBase64("***", { fileName: "../x" }));
await attempt("uploadFromUrl (self)", () => client.uploadFromUrl(`${music}/_emulator/requests`));
await attempt("getTask (unknown)", () => client.getTask("no-such-task"));
await attempt("getCredits (wrong key)", () => new Client({ apiKey: `${key}-wrong`, baseUrl: music, uploadUrl: upload }).getCredits());
await attempt("getCredits (closed port)", () => new Client({ apiKey: key, baseUrl: "http://127.0.0.1:9", uploadUrl: upload }).getCredits());
await attempt("getCredits (timeout)", () => new Client({ apiKey: key, baseUrl: music, timeoutMs: 1 }).getCredits());
await attempt("getCredits (aborted)", () => client.getCredits({ signal: AbortSignal.abort() }));
await attempt("getCredits (fault)", () =>
  new Client({ apiKey: key, baseUrl: music, fetch: (url, init) => fetch(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), "X-Emulate-Code": "500" } }) }).getCredits());
console.log("secrets client: done");
