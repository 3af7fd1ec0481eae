// A track's waveform, drawn from its decoded audio (WebAudio `decodeAudioData`), on which a range
// is selected by dragging (or with the keyboard: arrows move the window by 0.1 s, Shift+arrows move
// its end, Home/End jump). Times are kept to two decimals, as the service takes them.

const round2 = (t) => Math.round(t * 100) / 100;

export class Waveform {
  /** `onSelect({ start, end })` runs as the selection changes (null ends when none). */
  constructor(canvas, { onSelect = () => {} } = {}) {
    this.canvas = canvas;
    this.onSelect = onSelect;
    this.peaks = null;
    this.duration = 0;
    this.start = null;
    this.end = null;
    this.playhead = null;
    this.url = null;
    this.drag = null;
    canvas.addEventListener("pointerdown", (e) => this.#down(e));
    canvas.addEventListener("pointermove", (e) => this.#move(e));
    canvas.addEventListener("pointerup", (e) => this.#up(e));
    canvas.addEventListener("pointercancel", (e) => this.#up(e));
    canvas.addEventListener("keydown", (e) => this.#key(e));
    window.addEventListener("resize", () => this.draw());
  }

  /** Fetches and decodes `url`, and keeps min/max peaks for drawing. Resolves with the duration. */
  async load(url) {
    this.url = url;
    const res = await fetch(url);
    if (!res.ok) throw new Error(`The track's audio answered ${res.status}`);
    const bytes = await res.arrayBuffer();
    const ctx = new OfflineAudioContext(1, 1, 22050);
    const audio = await ctx.decodeAudioData(bytes);
    if (this.url !== url) return this.duration;
    const data = audio.getChannelData(0);
    const buckets = 1200;
    const size = Math.max(1, Math.floor(data.length / buckets));
    const peaks = new Float32Array(buckets * 2);
    for (let b = 0; b < buckets; b++) {
      let lo = 0;
      let hi = 0;
      for (let i = b * size, stop = Math.min(data.length, i + size); i < stop; i++) {
        const v = data[i];
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      peaks[b * 2] = lo;
      peaks[b * 2 + 1] = hi;
    }
    this.peaks = peaks;
    this.duration = audio.duration;
    this.select(null, null);
    return this.duration;
  }

  clear() {
    this.url = null;
    this.peaks = null;
    this.duration = 0;
    this.select(null, null);
  }

  /** Sets the selection (seconds, two decimals, within the track); null clears it. */
  select(start, end) {
    if (start == null || end == null || !this.duration) {
      this.start = this.end = null;
    } else {
      const [a, b] = start <= end ? [start, end] : [end, start];
      this.start = round2(Math.max(0, Math.min(this.duration, a)));
      this.end = round2(Math.max(0, Math.min(this.duration, b)));
    }
    this.draw();
    this.onSelect({ start: this.start, end: this.end });
  }

  setPlayhead(t) {
    this.playhead = t;
    this.draw();
  }

  #time(e) {
    const box = this.canvas.getBoundingClientRect();
    return ((e.clientX - box.left) / box.width) * this.duration;
  }

  #down(e) {
    if (!this.duration) return;
    this.canvas.setPointerCapture?.(e.pointerId);
    this.drag = this.#time(e);
    this.select(this.drag, this.drag);
  }

  #move(e) {
    if (this.drag == null) return;
    this.select(this.drag, this.#time(e));
  }

  #up(e) {
    if (this.drag == null) return;
    this.select(this.drag, this.#time(e));
    this.drag = null;
  }

  #key(e) {
    if (!this.duration) return;
    const step = e.altKey ? 1 : 0.1;
    let { start, end } = this;
    if (start == null) [start, end] = [0, Math.min(this.duration, 6)];
    const moves = {
      ArrowLeft: -step, ArrowRight: step,
    };
    if (e.key in moves) {
      if (e.shiftKey) end += moves[e.key];
      else {
        const len = end - start;
        start = Math.max(0, Math.min(this.duration - len, start + moves[e.key]));
        end = start + len;
      }
    } else if (e.key === "Home") {
      end -= start;
      start = 0;
    } else if (e.key === "End") {
      start = this.duration - (end - start);
      end = this.duration;
    } else {
      return;
    }
    e.preventDefault();
    this.select(start, end);
  }

  draw() {
    const canvas = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    const width = canvas.clientWidth || 600;
    const height = canvas.clientHeight || 120;
    if (canvas.width !== Math.round(width * dpr)) canvas.width = Math.round(width * dpr);
    if (canvas.height !== Math.round(height * dpr)) canvas.height = Math.round(height * dpr);
    const g = canvas.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, width, height);
    if (!this.peaks) return;
    const axis = 16;
    const mid = (height - axis) / 2;
    const x = (t) => (t / this.duration) * width;
    if (this.start != null) {
      g.fillStyle = "rgb(179 136 255 / 0.28)";
      g.fillRect(x(this.start), 0, Math.max(1, x(this.end) - x(this.start)), height - axis);
    }
    const buckets = this.peaks.length / 2;
    g.fillStyle = getComputedStyle(canvas).getPropertyValue("--wave").trim() || "#ff7a59";
    for (let px = 0; px < width; px++) {
      const b = Math.min(buckets - 1, Math.floor((px / width) * buckets));
      const lo = this.peaks[b * 2];
      const hi = this.peaks[b * 2 + 1];
      const inside = this.start != null && x(this.start) <= px && px <= x(this.end);
      g.globalAlpha = inside || this.start == null ? 1 : 0.45;
      g.fillRect(px, mid - hi * mid, 1, Math.max(1, (hi - lo) * mid));
    }
    g.globalAlpha = 1;
    if (this.start != null) {
      g.fillStyle = "#b388ff";
      g.fillRect(x(this.start) - 1, 0, 2, height - axis);
      g.fillRect(x(this.end) - 1, 0, 2, height - axis);
    }
    if (this.playhead != null) {
      g.fillStyle = "#fff";
      g.fillRect(x(this.playhead) - 1, 0, 2, height - axis);
    }
    const css = getComputedStyle(canvas);
    g.fillStyle = css.color;
    g.font = "10px system-ui, sans-serif";
    const step = this.duration > 60 ? 10 : this.duration > 20 ? 5 : 2;
    for (let t = 0; t < this.duration; t += step) if (x(t) + 24 < width) g.fillText(`${t}s`, x(t) + 2, height - 4);
  }
}
