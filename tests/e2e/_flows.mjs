// The studio's flow steps, shared by the suites that click through it: demo-flows.mjs (the demo on
// the emulator), site-flows.mjs and site.mjs (the demo as a static site). Waiting for the page
// (failing with its own words when it shows an error), a task followed through its last stage,
// players heard, and the song and the tones the flows send.
import { assert, pcmWav, test } from "./_lib.mjs";

/** The words of the flows' song: sent in custom mode, then read back as its timed lyrics. */
export const LYRICS = "Neon rain on the window\nWe drive until the morning\nEvery light a promise\nEvery road a song\nHold on, hold on\nThe city hums along";

/** A tone of `hz` with a slow tremolo, `seconds` long: a 16-bit mono WAV. */
export function tone(hz, seconds, rate = 22050) {
  return pcmWav(seconds, (t) => 8000 * (0.7 + 0.3 * Math.sin(2 * Math.PI * 2 * t)) * Math.sin(2 * Math.PI * hz * t), rate);
}

/** The steps of the flows run on `page` (the studio's page). */
export function flowSteps(page) {
  /** A flow's test: it starts with no error message left by an earlier one. */
  function flow(name, fn) {
    test(name, async () => {
      await page.$$eval(".alert", (ts) => ts.forEach((t) => t.remove()));
      await fn();
    });
  }

  /** Fails at once with the page's own words when it shows an error while a flow is awaited. */
  async function errorFree() {
    const alert = await page.$(".alert");
    if (alert) {
      const text = await alert.innerText();
      await page.$$eval(".alert", (ts) => ts.forEach((t) => t.remove()));
      throw new Error(`the page showed an error: ${text.replace(/\s+/g, " ")}`);
    }
  }

  /** Waits for `ready` (a function run in the page), or for an error message, which fails the test. */
  async function until(ready, arg, timeout = 60000) {
    await page.waitForFunction(`(${ready})(${JSON.stringify(arg ?? null)}) || document.querySelector(".alert")`, null, { timeout });
    await errorFree();
  }

  /** Waits for a task other than `before` to be on show, through its last stage, with its tracks. */
  async function waitNewTaskComplete(before, timeout = 60000) {
    await until((b) => {
      const id = document.querySelector("#task-id")?.textContent;
      const li = document.querySelector("#timeline li[data-stage=complete]");
      return id && id !== b && li?.dataset.state === "done" && document.querySelectorAll(".track").length >= 1;
    }, before, timeout);
    return page.textContent("#task-id");
  }

  /** The first audio element of `selector` advances: it is heard. */
  async function heard(selector, timeout = 20000) {
    await page.waitForFunction((sel) => {
      const audio = document.querySelector(sel);
      return audio && !audio.paused && audio.currentTime > 0.3;
    }, selector, { timeout });
  }

  /** Plays every audio element of `selector` a moment: each must start and advance. */
  async function eachPlays(selector) {
    const results = await page.$$eval(selector, (audios) => Promise.all(audios.map(async (audio) => {
      audio.muted = true;
      try {
        await audio.play();
        const t0 = audio.currentTime;
        await new Promise((r) => setTimeout(r, 700));
        const moved = audio.currentTime > t0;
        audio.pause();
        return { src: audio.src, moved, error: audio.error?.message ?? null };
      } catch (error) {
        return { src: audio.src, moved: false, error: String(error) };
      }
    })));
    for (const r of results) assert(r.moved, `${r.src} did not play: ${r.error}`);
    return results.length;
  }

  /** Drags across the waveform from `a` to `b` seconds; the track's length. */
  async function dragWave(a, b) {
    await page.locator("#replace-wave").scrollIntoViewIfNeeded();
    const box = await page.locator("#replace-wave").boundingBox();
    const duration = Number(await page.getAttribute("#replace-wave", "aria-valuemax"));
    const x = (t) => box.x + (t / duration) * box.width;
    const y = box.y + box.height / 2;
    await page.mouse.move(x(a), y);
    await page.mouse.down();
    await page.mouse.move((x(a) + x(b)) / 2, y, { steps: 4 });
    await page.mouse.move(x(b), y, { steps: 4 });
    await page.mouse.up();
    return duration;
  }

  /** Once Generate is clicked: the refusal shown at the form's field `name`, in `words`, and no
   * error message anywhere else. */
  async function refusedAt(name, words) {
    await page.waitForFunction((n) => document.querySelector(`#err-${n}`)?.textContent || document.querySelector(".alert"), name, { timeout: 15000 });
    const said = await page.textContent(`#err-${name}`);
    const alert = await page.$(".alert");
    assert(words.test(said) && !alert, `the refusal at the field: ${said}; elsewhere: ${alert && (await alert.innerText())}`);
  }

  /** The studio's tools on the song on show (task `taskId`): its stems, the first stem's MIDI, its
   * video, and fresh links for it, each waited for to its end. */
  async function studioTools(taskId) {
    await page.selectOption("#stems-form [name=type]", "split_stem");
    await page.click("#stems-go");
    await until(() => /\d+ stems?\./.test(document.querySelector("#stems-status").textContent));
    await page.click("#stems .midi-btn >> nth=0");
    await until(() => /\d+ notes\./.test(document.querySelector("#midi-status").textContent));
    await page.click("#video-go");
    await until(() => document.querySelector("#video-link a"));
    await page.fill("#recovery-form [name=sunoTaskId]", taskId);
    await page.click("#recovery-go");
    await until(() => /tracks playable again/.test(document.querySelector("#recovery-status").textContent));
  }

  return { flow, until, waitNewTaskComplete, heard, eachPlays, dragWave, refusedAt, studioTools };
}
