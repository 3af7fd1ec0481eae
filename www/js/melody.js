// A hummed melody as a 16-bit mono WAV, so the demo can be tried without a file at hand. It lasts
// long enough for every studio flow: a replaced window of at least 10 s (V6) may be at most half
// the track, and a persona learns from a segment of 10 to 30 s.

export const MELODY_SECONDS = 44;
/** Each note's length: a phrase of eight notes is four seconds. */
const NOTE_SECONDS = 0.5;
/** Four phrases (MIDI notes) that come round again: a tune, not a scale. */
const TUNE = [
  60, 62, 64, 67, 69, 67, 64, 62,
  64, 65, 67, 72, 71, 67, 65, 64,
  60, 62, 64, 67, 69, 72, 69, 67,
  65, 64, 62, 59, 60, 64, 60, 60,
];

export function testMelody() {
  const rate = 22050;
  const samples = Math.round(rate * MELODY_SECONDS);
  const view = new DataView(new ArrayBuffer(44 + samples * 2));
  const text = (offset, s) => [...s].forEach((c, i) => view.setUint8(offset + i, c.charCodeAt(0)));
  text(0, "RIFF"); view.setUint32(4, 36 + samples * 2, true); text(8, "WAVEfmt ");
  view.setUint32(16, 16, true); view.setUint16(20, 1, true); view.setUint16(22, 1, true);
  view.setUint32(24, rate, true); view.setUint32(28, rate * 2, true); view.setUint16(32, 2, true);
  view.setUint16(34, 16, true); text(36, "data"); view.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const n = Math.floor(t / NOTE_SECONDS);
    const local = t - n * NOTE_SECONDS;
    const freq = 440 * 2 ** ((TUNE[n % TUNE.length] - 69) / 12);
    const env = Math.min(1, local * 30) * Math.exp(-local * 3);
    const v = env * (0.6 * Math.sin(2 * Math.PI * freq * t) + 0.2 * Math.sin(4 * Math.PI * freq * t));
    view.setInt16(44 + i * 2, Math.round(v * 0.5 * 32767), true);
  }
  return new File([view.buffer], "test-melody.wav", { type: "audio/wav" });
}
