// The tunesmith demo: upload an audio file, start an operation, follow it stage by stage, play the
// tracks, make covers and WAV files, and compare the polled states with the callbacks received; in
// the studio, take a song further: stems, a MIDI piano roll, a replaced section, timed lyrics, the
// video, a persona, sounds and loops, a mashup, fresh links for an old song.
// Plain modules, one per panel (js/*.js), the page's state in js/store.js; everything the page
// does with the service goes through the package in ./pkg/.
import { initCovers } from "./js/covers.js";
import { initCredits } from "./js/credits.js";
import { initForms } from "./js/forms.js";
import { initHistory } from "./js/history.js";
import { showError } from "./js/messages.js";
import { DEV_KEY, loadDescription, uploadHost } from "./js/service.js";
import { apply, initSettings } from "./js/settings.js";
import { initUpload } from "./js/upload.js";
import { initKaraoke } from "./js/karaoke.js";
import { initMashup } from "./js/mashup.js";
import { initMidi } from "./js/midi.js";
import { initPersona } from "./js/persona.js";
import { initRecovery } from "./js/recovery.js";
import { initReplace } from "./js/replace.js";
import { initSounds } from "./js/sounds.js";
import { initStems } from "./js/stems.js";
import { initStudio } from "./js/studio.js";
import { initVideo } from "./js/video.js";

const params = new URLSearchParams(location.search);

/** The page's own origin serves the music API when the emulator serves the page (`cargo xtask demo`). */
const defaultMusicUrl = () => (/^https?:$/.test(location.protocol) ? location.origin : "http://127.0.0.1:8787");

/** Without a description naming the upload host, the demo's convention is the next port. */
function nextPort(baseUrl) {
  const url = new URL(baseUrl);
  url.port = String(Number(url.port || (url.protocol === "https:" ? 443 : 80)) + 1);
  return url.origin;
}

async function main() {
  initCredits();
  initSettings();
  initUpload();
  initForms();
  initCovers();
  initHistory();
  initStudio();
  initStems();
  initMidi();
  initReplace();
  initKaraoke();
  initVideo();
  initPersona();
  initSounds();
  initMashup();
  initRecovery();
  // `cargo xtask demo` runs a companion that holds the key and writes its URL into companion.json,
  // with the URL of the demo's own routes beside it (top-up, callbacks received); null there: a
  // page served without one talks to the emulator directly, with the dev key. The static site
  // (pkg/site/) names its music host there too, each URL relative to the page.
  const served = await fetch("companion.json").then((r) => (r.ok ? r.json() : {})).catch(() => ({}));
  const here = (url) => (typeof url === "string" ? new URL(url, location.href).href.replace(/\/$/, "") : url);
  const baseUrl = (params.get("music") ?? here(served.musicUrl) ?? defaultMusicUrl()).replace(/\/$/, "");
  const companionUrl = params.get("companion") ?? here(served.companionUrl) ?? null;
  const demoUrl = params.get("companion") ? params.get("demo") : here(served.demoUrl) ?? null;
  const doc = await loadDescription(baseUrl);
  // A fresh inbox per page load: the callbacks panel then shows this visit's tasks only.
  const inbox = `demo-${Math.random().toString(36).slice(2, 10)}`;
  await apply({
    baseUrl,
    uploadUrl: (params.get("upload") ?? uploadHost(doc) ?? nextPort(baseUrl)).replace(/\/$/, ""),
    apiKey: companionUrl ? null : params.get("key") ?? DEV_KEY,
    companionUrl,
    demoUrl,
    // Through the companion, each create's callback URL is the companion's own.
    callBackUrl: companionUrl ? undefined : params.get("callback") ?? `${baseUrl}/inbox/${inbox}`,
  }, doc);
  document.body.dataset.ready = "true";
}

main().catch(showError);
