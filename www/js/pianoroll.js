// A piano roll on a canvas: time on x, pitch on y (a keyboard strip on the left, C's named),
// each note a bar whose opacity is its velocity; one colour per instrument; a playhead at `time`,
// the notes under it lit.

const NAMES = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"];
export const noteName = (pitch) => `${NAMES[((pitch % 12) + 12) % 12]}${Math.floor(pitch / 12) - 1}`;
const HUES = [14, 265, 160, 45, 200, 330];
const KEYS = 34;
const AXIS = 18;

/** The range the roll shows: every note's pitch with a little room, and the longest end. */
export function extent(instruments) {
  const notes = instruments.flatMap((i) => i.notes ?? []);
  if (!notes.length) return null;
  const pitches = notes.map((n) => n.pitch);
  return {
    low: Math.max(0, Math.min(...pitches) - 2),
    high: Math.min(127, Math.max(...pitches) + 2),
    end: Math.max(...notes.map((n) => n.end)),
    count: notes.length,
  };
}

/** A sentence for screen readers and the caption: how many notes, which range, how long. */
export function describeRoll(instruments, stemName = null) {
  const range = extent(instruments);
  if (!range) return "no notes were found in this stem";
  const notes = instruments.flatMap((i) => i.notes);
  const pitches = notes.map((n) => n.pitch);
  // One instrument is named only when the stem's own name does not already say it.
  const only = instruments.length === 1 ? instruments[0].name : null;
  const named = instruments.length > 1 ? `, ${instruments.length} instruments`
    : only && only.toLowerCase() !== String(stemName ?? "").toLowerCase() ? ` (${only})` : "";
  return `${range.count} notes from ${noteName(Math.min(...pitches))} to ${noteName(Math.max(...pitches))} over ${range.end.toFixed(1)} s${named}`;
}

/** Draws `instruments` on `canvas`; `time`: the playhead in seconds, or null. */
export function drawPianoRoll(canvas, instruments, { time = null, duration = null } = {}) {
  const range = extent(instruments);
  const rows = range ? range.high - range.low + 1 : 0;
  // At least 6 px a semitone: a wide range makes the roll taller rather than its notes thinner.
  const wanted = Math.max(220, rows * 6 + AXIS);
  if (canvas.style.height !== `${wanted}px`) canvas.style.height = `${wanted}px`;
  const dpr = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || 600;
  const height = canvas.clientHeight || wanted;
  if (canvas.width !== Math.round(width * dpr)) canvas.width = Math.round(width * dpr);
  if (canvas.height !== Math.round(height * dpr)) canvas.height = Math.round(height * dpr);
  const g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  const ink = getComputedStyle(canvas).color;
  g.clearRect(0, 0, width, height);
  if (!range) return;
  const span = Math.max(duration ?? 0, range.end, 0.001);
  const rowH = (height - AXIS) / rows;
  const x = (t) => KEYS + (t / span) * (width - KEYS - 4);
  const y = (p) => (range.high - p) * rowH;

  // Keyboard strip (white and black keys) and row shading: black-key rows a shade darker.
  for (let p = range.low; p <= range.high; p++) {
    const black = [1, 3, 6, 8, 10].includes(p % 12);
    if (black) {
      g.fillStyle = "rgb(128 128 128 / 0.13)";
      g.fillRect(KEYS, y(p), width - KEYS, rowH);
    }
    g.fillStyle = black ? "#2a2435" : "#fbf9ff";
    g.fillRect(0, y(p), KEYS - 2, rowH);
    g.fillStyle = "rgb(128 128 128 / 0.5)";
    g.fillRect(0, y(p) + rowH - 0.5, KEYS - 2, 0.5);
  }
  // Octave lines and the C's named on the keys.
  g.font = "9px system-ui, sans-serif";
  g.textBaseline = "middle";
  for (let p = range.low; p <= range.high; p++) {
    if (p % 12 !== 0) continue;
    g.fillStyle = "rgb(128 128 128 / 0.45)";
    g.fillRect(KEYS, y(p) + rowH - 0.5, width - KEYS, 1);
    g.fillStyle = "#2a2435";
    g.fillText(noteName(p), 3, y(p) + rowH / 2);
  }
  // Time axis: a tick every second (every 2 s, or 5 s, on longer stems).
  const step = span > 40 ? 5 : span > 12 ? 2 : 1;
  g.fillStyle = ink;
  g.strokeStyle = "rgb(128 128 128 / 0.3)";
  g.lineWidth = 1;
  g.font = "10px system-ui, sans-serif";
  g.textBaseline = "alphabetic";
  for (let t = 0; t <= span + 1e-9; t += step) {
    g.beginPath();
    g.moveTo(x(t), 0);
    g.lineTo(x(t), height - AXIS);
    g.stroke();
    if (x(t) + 24 < width) g.fillText(`${t}s`, x(t) + 2, height - 4);
  }
  // Notes: opacity from velocity; the ones sounding at the playhead outlined.
  instruments.forEach((instrument, i) => {
    const hue = HUES[i % HUES.length];
    for (const n of instrument.notes ?? []) {
      const on = time != null && n.start <= time && time < n.end;
      const alpha = 0.2 + 0.8 * Math.max(0, Math.min(1, n.velocity));
      g.fillStyle = `hsl(${hue} 85% ${on ? 60 : 52}% / ${alpha})`;
      const w = Math.max(2, x(n.end) - x(n.start));
      const h = Math.max(2, rowH - 1);
      g.fillRect(x(n.start), y(n.pitch) + 0.5, w, h);
      if (on) {
        g.strokeStyle = ink;
        g.lineWidth = 1.5;
        g.strokeRect(x(n.start), y(n.pitch) + 0.5, w, h);
      }
    }
  });
  if (time != null) {
    g.strokeStyle = "#ff7a59";
    g.lineWidth = 2;
    g.beginPath();
    g.moveTo(x(time), 0);
    g.lineTo(x(time), height - AXIS);
    g.stroke();
  }
}
