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
export function describeRoll(instruments) {
  const range = extent(instruments);
  if (!range) return "No notes were found in this stem.";
  const notes = instruments.flatMap((i) => i.notes);
  const pitches = notes.map((n) => n.pitch);
  return `${range.count} notes from ${noteName(Math.min(...pitches))} to ${noteName(Math.max(...pitches))} over ${range.end.toFixed(1)} s` +
    (instruments.length > 1 ? `, ${instruments.length} instruments` : ` (${instruments[0].name})`);
}

/** Draws `instruments` on `canvas`; `time`: the playhead in seconds, or null. */
export function drawPianoRoll(canvas, instruments, { time = null, duration = null } = {}) {
  const dpr = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || 600;
  const height = canvas.clientHeight || 260;
  if (canvas.width !== Math.round(width * dpr)) canvas.width = Math.round(width * dpr);
  if (canvas.height !== Math.round(height * dpr)) canvas.height = Math.round(height * dpr);
  const g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  const css = getComputedStyle(canvas);
  const ink = css.color;
  g.clearRect(0, 0, width, height);
  const range = extent(instruments);
  if (!range) return;
  const span = Math.max(duration ?? 0, range.end, 0.001);
  const rows = range.high - range.low + 1;
  const rowH = (height - AXIS) / rows;
  const x = (t) => KEYS + (t / span) * (width - KEYS - 4);
  const y = (p) => (range.high - p) * rowH;

  // Keyboard strip and row shading: black keys darker, C rows named.
  g.font = "10px system-ui, sans-serif";
  g.textBaseline = "middle";
  for (let p = range.low; p <= range.high; p++) {
    const black = [1, 3, 6, 8, 10].includes(p % 12);
    g.fillStyle = black ? "rgb(0 0 0 / 0.28)" : "rgb(255 255 255 / 0.05)";
    g.fillRect(KEYS, y(p), width - KEYS, rowH);
    g.fillStyle = black ? "#222" : "#eee";
    g.fillRect(0, y(p) + 0.5, KEYS - 4, Math.max(1, rowH - 1));
    if (p % 12 === 0 && rowH >= 5) {
      g.fillStyle = "#333";
      g.fillText(noteName(p), 2, y(p) + rowH / 2);
    }
  }
  // Time axis: a tick every second (every 5 s on long stems).
  const step = span > 40 ? 5 : span > 12 ? 2 : 1;
  g.fillStyle = ink;
  g.strokeStyle = "rgb(128 128 128 / 0.35)";
  g.lineWidth = 1;
  g.textBaseline = "alphabetic";
  for (let t = 0; t <= span + 1e-9; t += step) {
    g.beginPath();
    g.moveTo(x(t), 0);
    g.lineTo(x(t), height - AXIS);
    g.stroke();
    g.fillText(`${t}s`, x(t) + 2, height - 4);
  }
  // Notes: opacity from velocity; the ones sounding at the playhead outlined.
  instruments.forEach((instrument, i) => {
    const hue = HUES[i % HUES.length];
    for (const n of instrument.notes ?? []) {
      const on = time != null && n.start <= time && time < n.end;
      const alpha = 0.25 + 0.75 * Math.max(0, Math.min(1, n.velocity));
      g.fillStyle = `hsl(${hue} 90% ${on ? 72 : 62}% / ${alpha})`;
      const w = Math.max(2, x(n.end) - x(n.start));
      g.fillRect(x(n.start), y(n.pitch) + 1, w, Math.max(2, rowH - 2));
      if (on) {
        g.strokeStyle = "#fff";
        g.lineWidth = 1.5;
        g.strokeRect(x(n.start), y(n.pitch) + 1, w, Math.max(2, rowH - 2));
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
