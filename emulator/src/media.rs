//! Media for the emulator: deterministic, real and playable WAV tracks, 44.1 kHz conversion, stems, PNG covers and a minimal MP4 container.
//!
//! Everything here is pure (bytes in, bytes out), depends only on its arguments, and
//! never panics: undecodable input yields an empty `Vec` or `None`.

use std::f32::consts::{PI, TAU};
use std::io::Cursor;
use std::sync::OnceLock;

/// Rate of every generated track; low enough to keep files small, high enough to sound clean.
const RATE: u32 = 22_050;
const RATE_F: f32 = RATE as f32;
/// A mixed-in source is cut here so an uploaded hour-long file cannot stall the server.
const MAX_SOURCE_SECONDS: f32 = 120.0;
/// Upper bound for synthesized tracks (ten minutes, above any length the service offers),
/// so a bogus request cannot allocate gigabytes.
const MAX_SYNTH_SECONDS: f32 = 600.0;
/// Conversion and stems accept at most this much input, for the same reason.
const MAX_PROCESS_SECONDS: f64 = 1200.0;
/// Peak level after normalization: -1 dBFS leaves headroom for lossy re-encoders.
const PEAK: f32 = 0.891;

// ---------------------------------------------------------------------------
// Deterministic randomness
// ---------------------------------------------------------------------------

/// Small xorshift64 generator; the seed goes through splitmix64 first so that
/// neighbouring seeds (1, 2, 3...) still give unrelated streams.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        // xorshift must never hold 0, it would stay 0 forever.
        Rng(if z == 0 { 0x2545_F491_4F6C_DD1D } else { z })
    }

    fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in [-1, 1).
    fn bipolar(&mut self) -> f32 {
        self.unit() * 2.0 - 1.0
    }

    /// Uniform index in 0..n (0 when n is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    fn pick<T: Copy>(&mut self, items: &[T], fallback: T) -> T {
        items
            .get(self.below(items.len()))
            .copied()
            .unwrap_or(fallback)
    }
}

// ---------------------------------------------------------------------------
// Oscillators
// ---------------------------------------------------------------------------

const TABLE_BITS: u32 = 12;
const TABLE_LEN: usize = 1 << TABLE_BITS;

/// Single-cycle wavetables, one per timbre, each with a guard point for interpolation.
/// Precomputing the harmonic sums makes every oscillator a single lookup, which keeps a
/// 30 s render far below 100 ms even with a dozen voices sounding at once.
struct Tables {
    sine: Vec<f32>,
    pad: Vec<f32>,
    bass: Vec<f32>,
    lead: Vec<f32>,
    /// The arp's upper partials alone; they are faded out faster than the fundamental.
    arp_bright: Vec<f32>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let build = |partials: &[(f32, f32)]| -> Vec<f32> {
            (0..=TABLE_LEN)
                .map(|i| {
                    let x = i as f32 / TABLE_LEN as f32 * TAU;
                    partials.iter().map(|&(h, a)| a * (h * x).sin()).sum()
                })
                .collect()
        };
        Tables {
            sine: build(&[(1.0, 1.0)]),
            pad: build(&[(1.0, 1.0), (2.0, 0.22), (3.0, 0.08)]),
            bass: build(&[(1.0, 1.0), (2.0, 0.35), (3.0, 0.12)]),
            lead: build(&[(1.0, 1.0), (2.0, 0.35), (3.0, 0.15), (4.0, 0.06)]),
            arp_bright: build(&[(2.0, 0.3), (4.0, 0.1)]),
        }
    })
}

/// Table value at `phase` cycles (non-negative; whole cycles wrap), linearly interpolated.
#[inline(always)]
fn lookup(table: &[f32], phase: f32) -> f32 {
    let p = phase * TABLE_LEN as f32;
    let whole = p as usize;
    let frac = p - whole as f32;
    let i = whole & (TABLE_LEN - 1);
    let a = table.get(i).copied().unwrap_or(0.0);
    let b = table.get(i + 1).copied().unwrap_or(0.0);
    a + (b - a) * frac
}

#[inline(always)]
fn advance(phase: &mut f32, inc: f32) {
    *phase += inc;
    if *phase >= 1.0 {
        *phase -= 1.0;
    }
}

fn midi_to_hz(m: f32) -> f32 {
    440.0 * 2f32.powf((m - 69.0) / 12.0)
}

/// Per-sample multiplier giving an exponential decay with time constant `tau` seconds.
fn decay_factor(tau: f32) -> f32 {
    (-1.0 / (tau * RATE_F)).exp()
}

// ---------------------------------------------------------------------------
// Composition
// ---------------------------------------------------------------------------

const MAJOR: [i32; 7] = [0, 2, 4, 5, 7, 9, 11];

/// Semitone offset of a (possibly negative or > 6) scale degree of the major scale.
fn degree_semis(d: i32) -> i32 {
    let idx = d.rem_euclid(7) as usize;
    MAJOR.get(idx).copied().unwrap_or(0) + 12 * d.div_euclid(7)
}

/// Pop progressions that sound good in any key (0-based scale degrees).
const PROGRESSIONS: [[i32; 4]; 8] = [
    [0, 4, 5, 3], // I V vi IV
    [5, 3, 0, 4], // vi IV I V
    [0, 5, 3, 4], // I vi IV V
    [1, 4, 0, 5], // ii V I vi
    [0, 3, 5, 4], // I IV vi V
    [3, 0, 4, 5], // IV I V vi
    [0, 2, 3, 4], // I iii IV V
    [5, 4, 3, 4], // vi V IV V
];

/// Bass rhythms over eight eighth notes: 0 rest, 1 root, 2 fifth, 3 octave.
const BASS_PATTERNS: [[u8; 8]; 5] = [
    [1, 0, 0, 1, 0, 0, 1, 0],
    [1, 0, 1, 0, 1, 0, 1, 2],
    [1, 0, 0, 0, 2, 0, 0, 0],
    [1, 0, 3, 0, 1, 0, 2, 0],
    [1, 0, 0, 1, 1, 0, 2, 3],
];

/// Kick placements on a 16-step bar, as bit masks (bit i = step i).
const KICK_PATTERNS: [u16; 5] = [
    0b0000_0001_0000_0001,
    0b0000_0101_0000_0001,
    0b0000_0001_0100_0001,
    0b0001_0001_0001_0001,
    0b0000_1001_0000_1001,
];

#[derive(Clone, Copy, PartialEq)]
enum Voice {
    Pad,
    Bass,
    Arp,
    Lead,
    Kick,
    Snare,
    Hat,
    OpenHat,
}

#[derive(Clone, Copy)]
struct Note {
    voice: Voice,
    start: usize,
    len: usize,
    freq: f32,
    vel: f32,
    /// Seeds the noise of drum hits so each hit is deterministic but not identical.
    noise: u64,
}

struct Song {
    notes: Vec<Note>,
    beat: f32,
}

/// Turns the seed into a whole arrangement (list of notes) for `total` samples.
fn compose(seed: u64, total: usize) -> Song {
    let mut rng = Rng::new(seed);
    let bpm = 84.0 + rng.below(40) as f32;
    let beat = RATE_F * 60.0 / bpm;
    let bar = beat * 4.0;
    let tonic = 48 + rng.below(12) as i32;
    let prog = rng.pick(&PROGRESSIONS, [0, 4, 5, 3]);
    let bars_per_chord = if rng.unit() < 0.3 { 2 } else { 1 };
    let seventh = rng.unit() < 0.4;
    let bass_pat = rng.pick(&BASS_PATTERNS, [1, 0, 0, 1, 0, 0, 1, 0]);
    let kick_pat = rng.pick(&KICK_PATTERNS, 0x0101);
    let hat_sixteenths = rng.unit() < 0.4;
    let arp_per_beat: usize = if rng.unit() < 0.6 { 4 } else { 2 };
    // Arp order over chord tones (index 3 = root an octave up).
    let arp_orders: [[usize; 8]; 4] = [
        [0, 1, 2, 3, 0, 1, 2, 3],
        [0, 1, 2, 3, 2, 1, 0, 1],
        [0, 2, 1, 2, 0, 2, 1, 2],
        [3, 2, 1, 0, 1, 2, 3, 2],
    ];
    let arp_order = rng.pick(&arp_orders, [0, 1, 2, 3, 0, 1, 2, 3]);
    // A few skipped arp steps give it a rhythm instead of a constant stream.
    let mut arp_mask = [true; 16];
    for _ in 0..3 {
        let i = rng.below(16);
        if !i.is_multiple_of(4) {
            if let Some(m) = arp_mask.get_mut(i) {
                *m = false;
            }
        }
    }

    // One melody phrase (eight eighths per chord), repeated so the ear hears a hook.
    // Degrees are relative to the tonic; strong beats snap to chord tones.
    let mut melody = [[None::<(i32, usize)>; 8]; 4];
    let mut deg = 7 + 2 * rng.below(3) as i32;
    for (ci, chord) in prog.iter().enumerate() {
        let mut step = 0;
        while step < 8 {
            let r = rng.unit();
            let dur = if r < 0.25 {
                2
            } else if r < 0.35 {
                3
            } else {
                1
            };
            let rest = step % 4 != 0 && rng.unit() < 0.3;
            if step % 4 == 0 {
                // Nearest chord tone at or above degree 7 (melody octave).
                let tones = [chord + 7, chord + 9, chord + 11];
                let mut best = tones[0];
                for t in tones {
                    if (t - deg).abs() < (best - deg).abs() {
                        best = t;
                    }
                }
                deg = best;
            } else {
                deg += rng.pick(&[-2, -1, -1, 1, 1, 2], 1);
                deg = deg.clamp(6, 15);
            }
            let dur = dur.min(8 - step);
            if !rest {
                if let Some(slot) = melody.get_mut(ci).and_then(|m| m.get_mut(step)) {
                    *slot = Some((deg, dur));
                }
            }
            step += dur;
        }
    }

    let total_bars = (total as f32 / bar).ceil().max(1.0) as usize;
    let cycle_bars = 4 * bars_per_chord;
    // Arrangement: pad and arp alone first, then drums and bass, then the melody, with
    // the last bar thinned out so the fade-out lands on a quiet texture.
    let intro = if total_bars >= 8 {
        (total_bars / 6).clamp(1, 4)
    } else {
        0
    };
    let outro = usize::from(total_bars >= 8);
    let lead_start = if total_bars >= 12 {
        intro + cycle_bars.min(4)
    } else {
        intro
    };

    let mut notes = Vec::with_capacity(total_bars * 64);
    let mut push = |voice, start: f32, len: f32, freq: f32, vel: f32, noise: u64| {
        let s = start.max(0.0) as usize;
        if s < total {
            let l = (len.max(1.0) as usize).min(total - s);
            notes.push(Note {
                voice,
                start: s,
                len: l,
                freq,
                vel,
                noise,
            });
        }
    };

    for b in 0..total_bars {
        let bar_start = b as f32 * bar;
        let chord_slot = (b / bars_per_chord) % 4;
        let chord = prog.get(chord_slot).copied().unwrap_or(0);
        let mut tones = [chord, chord + 2, chord + 4, chord + 7];
        if seventh {
            tones[3] = chord + 6;
        }
        let full = b >= intro && b + outro < total_bars;
        let vary = |rng: &mut Rng| 0.88 + 0.12 * rng.unit();

        // Pad: one chord per bar, voiced into a narrow window for smooth voice leading.
        for &t in &tones {
            let m = (tonic + degree_semis(t) - (tonic + 7)).rem_euclid(12) + tonic + 7;
            push(Voice::Pad, bar_start, bar, midi_to_hz(m as f32), 1.0, 0);
        }

        // Arp an octave above the pad.
        let steps = 4 * arp_per_beat;
        let step_len = bar / steps as f32;
        for s in 0..steps {
            let mask_i = s * 16 / steps;
            if !arp_mask.get(mask_i).copied().unwrap_or(true) {
                continue;
            }
            let idx = arp_order.get(s % 8).copied().unwrap_or(0);
            let d = match idx {
                0 => tones[0],
                1 => tones[1],
                2 => tones[2],
                _ => tones[0] + 7,
            };
            let m = tonic + 12 + degree_semis(d);
            let accent = if s % arp_per_beat == 0 { 1.0 } else { 0.75 };
            let v = accent * vary(&mut rng);
            push(
                Voice::Arp,
                bar_start + s as f32 * step_len,
                step_len,
                midi_to_hz(m as f32),
                v,
                0,
            );
        }

        if full {
            // Bass.
            let eighth = beat / 2.0;
            for (i, &p) in bass_pat.iter().enumerate() {
                if p == 0 {
                    continue;
                }
                let held = 1 + bass_pat.iter().skip(i + 1).take_while(|&&q| q == 0).count();
                let semis = match p {
                    2 => degree_semis(chord + 4),
                    3 => degree_semis(chord) + 12,
                    _ => degree_semis(chord),
                };
                let m = 40 + (tonic + semis - 40).rem_euclid(12) + if p == 3 { 12 } else { 0 };
                let v = vary(&mut rng);
                push(
                    Voice::Bass,
                    bar_start + i as f32 * eighth,
                    held as f32 * eighth * 0.92,
                    midi_to_hz(m as f32),
                    v,
                    0,
                );
            }

            // Drums on a 16-step grid.
            let six = beat / 4.0;
            for s in 0..16usize {
                let t = bar_start + s as f32 * six;
                let noise = rng.next_u64();
                if kick_pat & (1 << s) != 0 {
                    push(Voice::Kick, t, 0.35 * RATE_F, 0.0, 1.0, noise);
                }
                if s == 4 || s == 12 {
                    push(Voice::Snare, t, 0.25 * RATE_F, 0.0, vary(&mut rng), noise);
                }
                let hat_here = if hat_sixteenths { true } else { s % 2 == 0 };
                if hat_here {
                    if s % 8 == 6 && rng.unit() < 0.5 {
                        push(Voice::OpenHat, t, 0.22 * RATE_F, 0.0, 0.9, noise);
                    } else {
                        let accent = if s % 4 == 2 { 1.0 } else { 0.6 };
                        push(
                            Voice::Hat,
                            t,
                            0.08 * RATE_F,
                            0.0,
                            accent * vary(&mut rng),
                            noise,
                        );
                    }
                }
            }

            // Melody: rests every third phrase so it does not become tiring.
            let since = b.saturating_sub(lead_start);
            if b >= lead_start && (since / cycle_bars) % 3 != 2 {
                let eighth = beat / 2.0;
                if let Some(phrase) = melody.get(chord_slot) {
                    // With two bars per chord the second bar answers an octave lower.
                    let shift = if bars_per_chord == 2 && b % 2 == 1 {
                        -7
                    } else {
                        0
                    };
                    for (i, n) in phrase.iter().enumerate() {
                        if let Some((d, dur)) = n {
                            let m = tonic + degree_semis(d + shift);
                            push(
                                Voice::Lead,
                                bar_start + i as f32 * eighth,
                                *dur as f32 * eighth * 0.95,
                                midi_to_hz(m as f32),
                                1.0,
                                0,
                            );
                        }
                    }
                }
            }
        }
    }
    Song { notes, beat }
}

/// Adds one note into `out`; voices keep their own phase and envelope state, so the
/// inner loop is allocation free.
fn render_note(note: &Note, out: &mut [f32], tabs: &Tables) {
    let end = (note.start + note.len).min(out.len());
    let Some(buf) = out.get_mut(note.start..end) else {
        return;
    };
    let len = buf.len() as f32;
    let inc = note.freq / RATE_F;
    match note.voice {
        Voice::Pad => {
            // Two slightly detuned oscillators (chorus) with slow attack and release.
            let att = (0.3 * RATE_F).min(len / 3.0);
            let rel = (0.35 * RATE_F).min(len / 3.0);
            let (mut p1, mut p2) = (0.0f32, 0.37f32);
            let inc2 = inc * 1.004;
            for (i, s) in buf.iter_mut().enumerate() {
                let t = i as f32;
                let env = smooth01(t / att) * smooth01((len - t) / rel);
                *s += 0.075 * env * (lookup(&tabs.pad, p1) + lookup(&tabs.pad, p2));
                advance(&mut p1, inc);
                advance(&mut p2, inc2);
            }
        }
        Voice::Bass => {
            let att = 0.006 * RATE_F;
            let rel = (0.03 * RATE_F).min(len / 2.0);
            let k = decay_factor(0.18);
            let (mut p, mut d) = (0.0f32, 1.0f32);
            for (i, s) in buf.iter_mut().enumerate() {
                let t = i as f32;
                let env =
                    (t / att).min(1.0) * ((len - t) / rel).clamp(0.0, 1.0) * (0.55 + 0.45 * d);
                let v = lookup(&tabs.bass, p);
                *s += 0.30 * note.vel * env * v;
                advance(&mut p, inc);
                d *= k;
            }
        }
        Voice::Arp => {
            let att = 0.004 * RATE_F;
            let rel = (0.015 * RATE_F).min(len / 2.0);
            let k = decay_factor(0.16);
            let (mut p, mut d) = (0.0f32, 1.0f32);
            for (i, s) in buf.iter_mut().enumerate() {
                let t = i as f32;
                let env = (t / att).min(1.0) * ((len - t) / rel).clamp(0.0, 1.0) * d;
                let v = lookup(&tabs.sine, p) + d * lookup(&tabs.arp_bright, p);
                *s += 0.10 * note.vel * env * v;
                advance(&mut p, inc);
                d *= k;
            }
        }
        Voice::Lead => {
            // Soft saw-like tone with delayed vibrato.
            let att = 0.02 * RATE_F;
            let rel = (0.05 * RATE_F).min(len / 2.0);
            let k = decay_factor(1.2);
            let (mut p, mut d, mut vp) = (0.0f32, 1.0f32, 0.0f32);
            let vib_inc = 5.0 / RATE_F;
            let vib_delay = 0.18 * RATE_F;
            for (i, s) in buf.iter_mut().enumerate() {
                let t = i as f32;
                let env = smooth01(t / att) * ((len - t) / rel).clamp(0.0, 1.0) * (0.6 + 0.4 * d);
                let v = lookup(&tabs.lead, p);
                *s += 0.12 * note.vel * env * v;
                let depth = if t > vib_delay { 0.004 } else { 0.0 };
                advance(&mut p, inc * (1.0 + depth * lookup(&tabs.sine, vp)));
                advance(&mut vp, vib_inc);
                d *= k;
            }
        }
        Voice::Kick => {
            // Pitch sweep from ~160 Hz down to 48 Hz: phase is the integral of that sweep.
            let k_amp = decay_factor(0.16);
            let tau = 0.045;
            let fade = 0.02 * RATE_F;
            let k_sweep = decay_factor(tau);
            let (mut a, mut sweep) = (1.0f32, 1.0f32);
            for (i, s) in buf.iter_mut().enumerate() {
                let t = i as f32 / RATE_F;
                let phase = 48.0 * t + 110.0 * tau * (1.0 - sweep);
                sweep *= k_sweep;
                let click = ((i as f32) / 30.0).min(1.0);
                let tail = ((len - i as f32) / fade).clamp(0.0, 1.0);
                *s += 0.55 * note.vel * a * click * tail * lookup(&tabs.sine, phase);
                a *= k_amp;
            }
        }
        Voice::Snare | Voice::Hat | Voice::OpenHat => {
            let mut rng = Rng::new(note.noise);
            let (tau, cutoff, gain, body) = match note.voice {
                Voice::Snare => (0.07, 1200.0, 0.20, 0.16),
                Voice::Hat => (0.022, 6000.0, 0.075, 0.0),
                _ => (0.08, 6000.0, 0.06, 0.0),
            };
            let a_hp = 1.0 - (-TAU * cutoff / RATE_F).exp();
            let k = decay_factor(tau);
            let kb = decay_factor(0.04);
            let fade = 0.01 * RATE_F;
            let (mut lp, mut d, mut db, mut p) = (0.0f32, 1.0f32, 1.0f32, 0.0f32);
            let body_inc = 185.0 / RATE_F;
            for (i, s) in buf.iter_mut().enumerate() {
                let x = rng.bipolar();
                lp += a_hp * (x - lp);
                let hp = x - lp;
                let tail = ((len - i as f32) / fade).clamp(0.0, 1.0);
                let onset = ((i as f32) / 20.0).min(1.0);
                *s += note.vel * tail * onset * (gain * d * hp + body * db * lookup(&tabs.sine, p));
                d *= k;
                db *= kb;
                advance(&mut p, body_inc);
            }
        }
    }
}

/// Smoothstep of x clamped to [0, 1]; used for click-free envelopes.
#[inline(always)]
fn smooth01(x: f32) -> f32 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

/// Renders `total` samples of accompaniment for `seed`, peak-normalized to 1.0 and faded.
fn render_song(seed: u64, total: usize) -> Vec<f32> {
    let mut dry = vec![0.0f32; total];
    if total == 0 {
        return dry;
    }
    let tabs = tables();
    let song = compose(seed, total);
    // Arp and melody go through a dotted-eighth feedback echo for space.
    let mut wet = vec![0.0f32; total];
    for n in &song.notes {
        if matches!(n.voice, Voice::Arp | Voice::Lead) {
            render_note(n, &mut wet, tabs);
        } else {
            render_note(n, &mut dry, tabs);
        }
    }
    let delay = (song.beat * 0.75) as usize;
    if delay > 0 && delay < total {
        // In-place recursion: wet[i - delay] already contains earlier echoes.
        for i in delay..total {
            let echo = wet.get(i - delay).copied().unwrap_or(0.0);
            if let Some(w) = wet.get_mut(i) {
                *w += 0.3 * echo;
            }
        }
    }
    for (d, w) in dry.iter_mut().zip(&wet) {
        *d += *w;
    }
    drop(wet);
    dc_block(&mut dry);
    let seconds = total as f32 / RATE_F;
    apply_fades(&mut dry, (seconds * 0.1).min(0.8), (seconds * 0.2).min(2.5));
    normalize(&mut dry, 1.0);
    dry
}

/// One-pole DC blocker (~7 Hz): the kick's asymmetric decay leaves a small offset.
fn dc_block(buf: &mut [f32]) {
    let (mut x1, mut y1) = (0.0f32, 0.0f32);
    for s in buf.iter_mut() {
        let y = *s - x1 + 0.998 * y1;
        x1 = *s;
        y1 = y;
        *s = y;
    }
}

/// Raised-cosine fade in and out (lengths in seconds).
fn apply_fades(buf: &mut [f32], fade_in: f32, fade_out: f32) {
    let n = buf.len();
    let fi = ((fade_in * RATE_F) as usize).min(n);
    let fo = ((fade_out * RATE_F) as usize).min(n);
    for (i, s) in buf.iter_mut().enumerate().take(fi) {
        *s *= 0.5 - 0.5 * (PI * i as f32 / fi as f32).cos();
    }
    for (j, s) in buf.iter_mut().rev().enumerate().take(fo) {
        *s *= 0.5 - 0.5 * (PI * j as f32 / fo as f32).cos();
    }
}

/// Scales so the absolute peak equals `target`; silence stays silence.
fn normalize(buf: &mut [f32], target: f32) {
    let peak = buf.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    if peak > 1e-9 {
        let g = target / peak;
        buf.iter_mut().for_each(|s| *s *= g);
    }
}

// ---------------------------------------------------------------------------
// WAV input and output
// ---------------------------------------------------------------------------

/// Decoded PCM, interleaved, in [-1, 1].
struct Pcm {
    rate: u32,
    channels: usize,
    data: Vec<f32>,
}

impl Pcm {
    fn frames(&self) -> usize {
        self.data.len() / self.channels.max(1)
    }

    /// Average of all channels.
    fn mono(&self) -> Vec<f32> {
        let ch = self.channels.max(1);
        let inv = 1.0 / ch as f32;
        self.data
            .chunks_exact(ch)
            .map(|f| f.iter().sum::<f32>() * inv)
            .collect()
    }

    /// Samples of one channel.
    fn channel(&self, c: usize) -> Vec<f32> {
        let ch = self.channels.max(1);
        self.data.iter().skip(c).step_by(ch).copied().collect()
    }
}

/// Reads any WAV hound understands (8/16/24/32-bit int, 32-bit float), stopping at the
/// first damaged sample so a truncated upload still yields what it holds.
fn decode(bytes: &[u8], max_seconds: f64) -> Option<Pcm> {
    let mut reader = hound::WavReader::new(Cursor::new(bytes)).ok()?;
    let spec = reader.spec();
    if spec.sample_rate == 0
        || spec.channels == 0
        || spec.bits_per_sample == 0
        || spec.bits_per_sample > 32
    {
        return None;
    }
    let channels = usize::from(spec.channels);
    let max_frames = (max_seconds * f64::from(spec.sample_rate)) as usize;
    let declared = reader.len() as usize;
    // Capacity bounded by the byte count: a header may claim far more data than exists.
    let limit = declared.min(max_frames.saturating_mul(channels));
    let mut data = Vec::with_capacity(limit.min(bytes.len()));
    match spec.sample_format {
        hound::SampleFormat::Float => {
            for s in reader.samples::<f32>().take(limit) {
                match s {
                    Ok(v) if v.is_finite() => data.push(v.clamp(-1.0, 1.0)),
                    Ok(_) => data.push(0.0),
                    Err(_) => break,
                }
            }
        }
        hound::SampleFormat::Int
            if spec.bits_per_sample == 16 && block_align(bytes) == Some(2 * spec.channels) =>
        {
            // Fast path for the common case: hound's per-sample reader costs ~15 ns a
            // sample, slicing the data chunk directly is several times cheaper.
            let start = usize::try_from(reader.into_inner().position()).unwrap_or(usize::MAX);
            let body = bytes.get(start..).unwrap_or(&[]);
            data.extend(
                body.chunks_exact(2)
                    .take(limit)
                    .map(|b| f32::from(i16::from_le_bytes([b[0], b[1]])) / 32768.0),
            );
        }
        hound::SampleFormat::Int => {
            let scale = 1.0 / (1u64 << (spec.bits_per_sample - 1)) as f32;
            for s in reader.samples::<i32>().take(limit) {
                match s {
                    Ok(v) => data.push(v as f32 * scale),
                    Err(_) => break,
                }
            }
        }
    }
    // Drop a trailing partial frame so channels stay aligned.
    data.truncate(data.len() / channels * channels);
    Some(Pcm {
        rate: spec.sample_rate,
        channels,
        data,
    })
}

/// `nBlockAlign` of the `fmt ` chunk, found by walking the RIFF chunks; tells whether
/// samples are packed (hound does not expose the container size).
fn block_align(bytes: &[u8]) -> Option<u16> {
    let mut pos = 12usize;
    while let Some(head) = bytes.get(pos..pos + 8) {
        let size = u32::from_le_bytes([head[4], head[5], head[6], head[7]]) as usize;
        if &head[..4] == b"fmt " {
            let b = bytes.get(pos + 20..pos + 22)?;
            return Some(u16::from_le_bytes([b[0], b[1]]));
        }
        // Chunks are padded to an even size.
        pos = pos
            .checked_add(8)?
            .checked_add(size)?
            .checked_add(size & 1)?;
    }
    None
}

/// Linear-interpolation resampling to exactly `out_len` samples.
fn resample(input: &[f32], from: u32, to: u32, out_len: usize) -> Vec<f32> {
    if input.is_empty() || from == 0 || to == 0 {
        return vec![0.0; out_len];
    }
    let step = f64::from(from) / f64::from(to);
    let last = input.len() - 1;
    (0..out_len)
        .map(|i| {
            let pos = i as f64 * step;
            let idx = (pos as usize).min(last);
            let frac = (pos - idx as f64).clamp(0.0, 1.0) as f32;
            let a = input.get(idx).copied().unwrap_or(0.0);
            let b = input.get((idx + 1).min(last)).copied().unwrap_or(a);
            a + (b - a) * frac
        })
        .collect()
}

/// Number of output frames that keeps the duration when going from rate `from` to `to`.
fn scaled_len(frames: usize, from: u32, to: u32) -> usize {
    if from == 0 {
        return 0;
    }
    (frames as f64 * f64::from(to) / f64::from(from)).round() as usize
}

#[inline(always)]
fn to_i16(s: f32) -> i16 {
    (s * 32767.0).round().clamp(-32768.0, 32767.0) as i16
}

/// Writes interleaved samples as a 16-bit PCM WAV; empty `Vec` if hound refuses.
fn write_wav(samples: &[f32], rate: u32, channels: u16) -> Vec<u8> {
    let spec = hound::WavSpec {
        channels,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut out = Vec::with_capacity(44 + samples.len() * 2);
    let ok = (|| -> Result<(), hound::Error> {
        let mut w = hound::WavWriter::new(Cursor::new(&mut out), spec)?;
        for &s in samples {
            w.write_sample(to_i16(s))?;
        }
        w.finalize()
    })();
    if ok.is_ok() {
        out
    } else {
        Vec::new()
    }
}

/// A WAV file (mono, 16-bit, 22050 Hz) of pleasant, clearly musical audio that depends only
/// on `seed`: tempo, key, chord progression, bass line, arpeggio, melody and drum pattern
/// are all drawn from it, with a gentle fade in/out and the peak at -1 dBFS.
///
/// Without a usable source the track is exactly `seconds` long (rounded to the nearest
/// sample; negative or non-finite values give an empty but valid WAV; capped at 600 s).
///
/// When `source` is a WAV hound can decode (any rate, channel count, 8/16/24/32-bit int or
/// 32-bit float) and holds at least one frame, it is down-mixed, resampled to 22050 Hz and
/// mixed in at about 60 % against 40 % accompaniment; `seconds` is then ignored and the
/// output has the source's duration, capped at 120 s. An undecodable source is ignored.
pub fn synth_track(seed: u64, seconds: f32, source: Option<&[u8]>) -> Vec<u8> {
    let src = source
        .and_then(|b| decode(b, f64::from(MAX_SOURCE_SECONDS)))
        .filter(|p| p.frames() > 0);
    let mix = match src {
        Some(pcm) => {
            let len = scaled_len(pcm.frames(), pcm.rate, RATE)
                .min((MAX_SOURCE_SECONDS * RATE_F) as usize);
            let mut voice = resample(&pcm.mono(), pcm.rate, RATE, len);
            normalize(&mut voice, 1.0);
            let acc = render_song(seed, len);
            let mut mix: Vec<f32> = voice
                .iter()
                .zip(&acc)
                .map(|(v, a)| 0.6 * v + 0.4 * a)
                .collect();
            normalize(&mut mix, PEAK);
            mix
        }
        None => {
            let secs = if seconds.is_finite() {
                seconds.clamp(0.0, MAX_SYNTH_SECONDS)
            } else {
                0.0
            };
            let mut song = render_song(seed, (secs * RATE_F).round() as usize);
            normalize(&mut song, PEAK);
            song
        }
    };
    write_wav(&mix, RATE, 1)
}

/// True duration in seconds of a WAV file: the frames actually present, which is the
/// declared length unless the file is truncated. `None` if it is not a readable WAV.
pub fn wav_duration(bytes: &[u8]) -> Option<f32> {
    let reader = hound::WavReader::new(Cursor::new(bytes)).ok()?;
    let spec = reader.spec();
    if spec.sample_rate == 0 || spec.channels == 0 {
        return None;
    }
    let declared = u64::from(reader.duration());
    let data_start = reader.into_inner().position();
    let frame_bytes = u64::from(spec.bits_per_sample).div_ceil(8) * u64::from(spec.channels);
    let available = (bytes.len() as u64).saturating_sub(data_start) / frame_bytes.max(1);
    Some((declared.min(available) as f64 / f64::from(spec.sample_rate)) as f32)
}

/// Converts a WAV to 44.1 kHz, 16-bit, stereo (the "WAV conversion" result, larger than
/// the source): mono is duplicated to both sides, stereo kept, more channels reduced to
/// the first two; duration is preserved. Empty `Vec` on undecodable input (or > 20 min).
pub fn to_wav_44k(wav: &[u8]) -> Vec<u8> {
    const OUT: u32 = 44_100;
    let Some(pcm) = decode(wav, MAX_PROCESS_SECONDS) else {
        return Vec::new();
    };
    let out_len = scaled_len(pcm.frames(), pcm.rate, OUT);
    let left = resample(&pcm.channel(0), pcm.rate, OUT, out_len);
    let right = if pcm.channels >= 2 {
        resample(&pcm.channel(1), pcm.rate, OUT, out_len)
    } else {
        left.clone()
    };
    let mut inter = Vec::with_capacity(out_len * 2);
    for (l, r) in left.iter().zip(&right) {
        inter.push(*l);
        inter.push(*r);
    }
    write_wav(&inter, OUT, 2)
}

/// Splits a track into `n` real stems (16-bit WAVs with the input's rate, channel count and
/// frame count) by complementary frequency bands, so the stems add back up to the track.
/// Band edges are log-spaced between 150 Hz and 6 kHz, each edge a two-pole (12 dB/octave)
/// one-pole cascade. Order: `stems[0]` is the band holding 1 kHz (the "vocal" range),
/// the others follow from low to high; with `n == 2` that is vocal (high) and
/// instrumental (low). `n` is capped at 16; `n == 0` or undecodable input gives no stems.
pub fn stems(wav: &[u8], n: usize) -> Vec<Vec<u8>> {
    let n = n.min(16);
    if n == 0 {
        return Vec::new();
    }
    let Some(pcm) = decode(wav, MAX_PROCESS_SECONDS) else {
        return Vec::new();
    };
    let channels = u16::try_from(pcm.channels).unwrap_or(1);
    if n == 1 {
        return vec![write_wav(&pcm.data, pcm.rate, channels)];
    }
    let nyq = pcm.rate as f32 * 0.45;
    let edges: Vec<f32> = if n == 2 {
        vec![(150.0f32 * 6000.0).sqrt()]
    } else {
        (0..n - 1)
            .map(|k| 150.0 * 40f32.powf(k as f32 / (n - 2) as f32))
            .collect()
    };
    // Low-passed copies at each edge; band k = lp[k] - lp[k-1] with lp[-1] = 0, lp[n-1] = x.
    let mut lows: Vec<Vec<f32>> = edges
        .iter()
        .map(|&f| lowpass2(&pcm.data, pcm.channels, pcm.rate, f.min(nyq)))
        .collect();
    lows.push(pcm.data.clone());
    let mut bands: Vec<Vec<f32>> = Vec::with_capacity(n);
    let mut prev: Option<&Vec<f32>> = None;
    for lp in &lows {
        let band = match prev {
            Some(p) => lp.iter().zip(p).map(|(a, b)| a - b).collect(),
            None => lp.clone(),
        };
        bands.push(band);
        prev = Some(lp);
    }
    let vocal = edges.iter().filter(|&&e| e <= 1000.0).count().min(n - 1);
    let mut order = vec![vocal];
    order.extend((0..n).filter(|&i| i != vocal));
    order
        .into_iter()
        .filter_map(|i| bands.get(i))
        .map(|b| write_wav(b, pcm.rate, channels))
        .collect()
}

/// Two cascaded one-pole low-passes at `cutoff` Hz on interleaved audio.
fn lowpass2(data: &[f32], channels: usize, rate: u32, cutoff: f32) -> Vec<f32> {
    let ch = channels.max(1);
    let a = 1.0 - (-TAU * cutoff / rate.max(1) as f32).exp();
    let mut s1 = vec![0.0f32; ch];
    let mut s2 = vec![0.0f32; ch];
    let mut out = Vec::with_capacity(data.len());
    for (i, &x) in data.iter().enumerate() {
        let c = i % ch;
        if let (Some(y1), Some(y2)) = (s1.get_mut(c), s2.get_mut(c)) {
            *y1 += a * (x - *y1);
            *y2 += a * (*y1 - *y2);
            out.push(*y2);
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Cover images
// ---------------------------------------------------------------------------

const SIZE: usize = 512;

type Rgb = [f32; 3];

/// HSV (hue in degrees) to linear-ish RGB in [0, 1].
fn hsv(h: f32, s: f32, v: f32) -> Rgb {
    let h = h.rem_euclid(360.0) / 60.0;
    let c = v * s;
    let x = c * (1.0 - ((h % 2.0) - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = v - c;
    [r + m, g + m, b + m]
}

fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

fn add(a: Rgb, b: Rgb, k: f32) -> Rgb {
    [a[0] + b[0] * k, a[1] + b[1] * k, a[2] + b[2] * k]
}

/// Piecewise smooth gradient through `(position, colour)` stops sorted by position.
fn gradient(stops: &[(f32, Rgb)], t: f32) -> Rgb {
    let mut prev = match stops.first() {
        Some(s) => *s,
        None => return [0.0; 3],
    };
    for &(pos, col) in stops.iter().skip(1) {
        if t <= pos {
            let span = (pos - prev.0).max(1e-6);
            return mix(prev.1, col, smooth01((t - prev.0) / span));
        }
        prev = (pos, col);
    }
    prev.1
}

/// Anti-aliased coverage of a shape given its signed distance in pixels (negative inside).
#[inline(always)]
fn coverage(sd: f32) -> f32 {
    (0.5 - sd).clamp(0.0, 1.0)
}

struct Circle {
    x: f32,
    y: f32,
    r: f32,
    soft: f32,
    alpha: f32,
    col: Rgb,
}

/// Style 0: dusk sky gradient, glowing sun (sometimes with retro slats), soft bokeh
/// circles and layered hills.
fn paint_landscape(rng: &mut Rng, img: &mut [u8]) {
    // Curated dusk palettes (top of sky to horizon): interpolating arbitrary hues gives
    // muddy greys, so the seed picks one of these and only nudges its brightness.
    const PALETTES: [[u32; 4]; 8] = [
        [0x1a0b3d, 0x5b1e74, 0xe0457b, 0xffb36b],
        [0x0b1d3a, 0x1f4e79, 0x4fa3c7, 0xf4d6a0],
        [0x2b1b3f, 0x7b3f8c, 0xf07f7f, 0xffd9a0],
        [0x0f2a2a, 0x2e6b5e, 0x9cc9a0, 0xf7efc0],
        [0x200a1a, 0x6e1a3a, 0xd8504d, 0xf9c46b],
        [0x1c1a3a, 0x4b4a8f, 0xb39ddb, 0xffe0c2],
        [0x04151f, 0x0e4d64, 0x2fa59a, 0xf2e3a6],
        [0x1d1030, 0x3f2a7a, 0xff7e5f, 0xfeb47b],
    ];
    let pal = rng.pick(&PALETTES, [0x1a0b3d, 0x5b1e74, 0xe0457b, 0xffb36b]);
    let lift = 0.92 + 0.16 * rng.unit();
    let col = |i: usize| -> Rgb {
        let v = pal.get(i).copied().unwrap_or(0);
        let ch = |shift: u32| (((v >> shift) & 0xff) as f32 / 255.0 * lift).min(1.0);
        [ch(16), ch(8), ch(0)]
    };
    let (c0, c1, c2, c3) = (col(0), col(1), col(2), col(3));
    let horizon = 0.62 + rng.unit() * 0.08;
    let sky = [
        (0.0, c0),
        (0.3, c1),
        (horizon - 0.08, c2),
        (horizon + 0.1, c3),
    ];
    let sun_x = 140.0 + rng.unit() * 232.0;
    let sun_y = 200.0 + rng.unit() * 90.0;
    let sun_r = 70.0 + rng.unit() * 45.0;
    let sun_top = mix(c3, [1.0, 1.0, 0.92], 0.6);
    let sun_bottom = mix(c2, c3, 0.35);
    let slats = rng.unit() < 0.5;
    let circles: Vec<Circle> = (0..10 + rng.below(6))
        .map(|_| Circle {
            x: rng.unit() * SIZE as f32,
            y: rng.unit() * 300.0,
            r: 10.0 + rng.unit() * 45.0,
            soft: 2.0 + rng.unit() * 10.0,
            alpha: 0.06 + rng.unit() * 0.14,
            col: mix(c3, [1.0; 3], 0.3 + 0.4 * rng.unit()),
        })
        .collect();
    // Hills: far to near, darker and more saturated as they come closer.
    let layers = 3;
    let mut ridges = vec![0.0f32; layers * SIZE];
    let mut hill_cols = Vec::with_capacity(layers);
    for l in 0..layers {
        let base = 330.0 + l as f32 * 55.0 + rng.unit() * 20.0;
        let (a1, f1, p1) = (
            18.0 + rng.unit() * 25.0,
            0.006 + rng.unit() * 0.008,
            rng.unit() * TAU,
        );
        let (a2, f2, p2) = (
            5.0 + rng.unit() * 10.0,
            0.02 + rng.unit() * 0.02,
            rng.unit() * TAU,
        );
        for x in 0..SIZE {
            let xf = x as f32;
            if let Some(r) = ridges.get_mut(l * SIZE + x) {
                *r = base + a1 * (xf * f1 + p1).sin() + a2 * (xf * f2 + p2).sin();
            }
        }
        let depth = l as f32 / (layers - 1) as f32;
        // Far hills take the sky's middle colour, near ones fade to the darkest tone.
        let far = mix(c1, c2, 0.35);
        let near = mix(c0, [0.0; 3], 0.45);
        let col = mix(far, near, depth);
        hill_cols.push(col);
    }

    for (y, row) in img.chunks_exact_mut(SIZE * 3).enumerate() {
        let yf = y as f32 + 0.5;
        let base = gradient(&sky, yf / SIZE as f32);
        for (x, px) in row.chunks_exact_mut(3).enumerate() {
            let xf = x as f32 + 0.5;
            let mut c = base;
            for b in &circles {
                let d = ((xf - b.x).powi(2) + (yf - b.y).powi(2)).sqrt();
                let cov = ((b.r - d) / b.soft).clamp(0.0, 1.0) * b.alpha;
                if cov > 0.0 {
                    c = mix(c, b.col, cov);
                }
            }
            let d = ((xf - sun_x).powi(2) + (yf - sun_y).powi(2)).sqrt();
            c = add(
                c,
                sun_top,
                0.28 * (-(d - sun_r).max(0.0) / (sun_r * 0.7)).exp(),
            );
            let mut sun = coverage(d - sun_r);
            if slats && yf > sun_y {
                // Horizontal gaps that widen towards the bottom of the sun.
                let k = (yf - sun_y) / sun_r;
                let band = (k * 7.0).fract();
                let gap = 0.12 + 0.4 * k;
                let edge = (band - gap).abs() * sun_r / 7.0;
                if band < gap {
                    sun *= 1.0 - coverage(-edge);
                }
            }
            if sun > 0.0 {
                let t = ((yf - (sun_y - sun_r)) / (2.0 * sun_r)).clamp(0.0, 1.0);
                c = mix(c, mix(sun_top, sun_bottom, t), sun);
            }
            for (l, col) in hill_cols.iter().enumerate() {
                let ridge = ridges.get(l * SIZE + x).copied().unwrap_or(SIZE as f32);
                let cov = coverage(ridge - yf);
                if cov > 0.0 {
                    // A little haze at the hill tops blends them into the sky.
                    let haze = (1.0 - (yf - ridge) / 120.0).clamp(0.0, 1.0)
                        * 0.25
                        * (1.0 - l as f32 / layers as f32);
                    c = mix(c, mix(*col, base, haze), cov);
                }
            }
            store(px, vignette(c, xf, yf), x, y);
        }
    }
}

/// Style 1: dark field with fine diagonal stripes, broken concentric rings and a
/// row of rounded waveform bars across the centre.
fn paint_rings(rng: &mut Rng, img: &mut [u8]) {
    let h0 = rng.unit() * 360.0;
    let h1 = h0 + 120.0 + rng.unit() * 90.0;
    // Night-sky backgrounds (teal to violet) flatter every bar colour; hues tied to h0
    // could land on olive.
    let bg_h = 200.0 + rng.unit() * 80.0;
    let bg_a = hsv(bg_h, 0.7, 0.08);
    let bg_b = hsv(bg_h + 25.0, 0.6, 0.2);
    let c_a = hsv(h0, 0.75, 1.0);
    let c_b = hsv(h1, 0.65, 1.0);
    let (cx, cy) = (256.0 + rng.bipolar() * 30.0, 256.0 + rng.bipolar() * 30.0);
    let spacing = 16.0 + rng.unit() * 10.0;
    let ring_w = 2.0 + rng.unit() * 3.0;
    let max_r = 200.0 + rng.unit() * 40.0;
    let ring_count = (max_r / spacing) as usize + 2;
    // Each ring has its own arc gap count and rotation.
    let arcs: Vec<(f32, f32, f32)> = (0..ring_count)
        .map(|_| {
            (
                (1 + rng.below(4)) as f32,
                rng.unit(),
                0.15 + rng.unit() * 0.35,
            )
        })
        .collect();
    let bars = 36 + rng.below(16);
    let x0 = 56.0f32;
    let pitch = (SIZE as f32 - 2.0 * x0) / bars as f32;
    let bar_w = pitch * (0.45 + rng.unit() * 0.2);
    let (w1, w2, ph) = (
        1.0 + rng.unit() * 2.0,
        4.0 + rng.unit() * 4.0,
        rng.unit() * TAU,
    );
    let heights: Vec<f32> = (0..bars)
        .map(|i| {
            let u = (i as f32 + 0.5) / bars as f32;
            let envelope = (PI * u).sin().powf(0.8);
            let wave = 0.55 + 0.25 * (TAU * w1 * u + ph).sin() + 0.2 * (TAU * w2 * u).sin().abs();
            (8.0 + 120.0 * envelope * wave * (0.7 + 0.3 * rng.unit())).max(bar_w)
        })
        .collect();
    let bar_y = 256.0f32;

    for (y, row) in img.chunks_exact_mut(SIZE * 3).enumerate() {
        let yf = y as f32 + 0.5;
        for (x, px) in row.chunks_exact_mut(3).enumerate() {
            let xf = x as f32 + 0.5;
            let mut c = mix(
                bg_a,
                bg_b,
                ((xf + yf) / (2.0 * SIZE as f32)).clamp(0.0, 1.0),
            );
            // Fine diagonal stripes.
            let stripe = ((xf - yf) / 22.0).rem_euclid(1.0);
            c = add(
                c,
                [1.0, 1.0, 1.0],
                0.025 * coverage((stripe - 0.5).abs() * 22.0 - 2.0),
            );

            let (dx, dy) = (xf - cx, yf - cy);
            let d = (dx * dx + dy * dy).sqrt();
            if d < max_r + spacing {
                let k = (d / spacing).round();
                let line = (d - k * spacing).abs() - ring_w * 0.5;
                let ang = (dy.atan2(dx) / TAU).rem_euclid(1.0);
                if let Some(&(count, rot, gap)) = arcs.get(k as usize) {
                    let a = (ang * count + rot).fract();
                    let arc_edge = (a - gap).min(1.0 - a) * TAU * d / count;
                    let cov = coverage(line)
                        * coverage(-arc_edge)
                        * (1.0 - smooth01((d - max_r * 0.55) / (max_r * 0.45)));
                    if cov > 0.0 && k > 0.0 {
                        let col = mix(c_a, c_b, 0.5 + 0.5 * (ang * TAU + k * 0.4).sin());
                        c = mix(c, col, cov * 0.85);
                    }
                }
            }
            // Bars: check the nearest two for glow and shape.
            let fi = ((xf - x0) / pitch).floor();
            let mut glow = 0.0f32;
            for j in [fi - 1.0, fi, fi + 1.0] {
                if j < 0.0 {
                    continue;
                }
                let Some(&h) = heights.get(j as usize) else {
                    continue;
                };
                let bx = x0 + (j + 0.5) * pitch;
                let sd = round_box(xf - bx, yf - bar_y, bar_w * 0.5, h * 0.5, bar_w * 0.5);
                let col = mix(c_a, c_b, (j + 0.5) / bars as f32);
                glow = glow.max((-sd.max(0.0) / 10.0).exp() * 0.35);
                let cov = coverage(sd);
                if cov > 0.0 {
                    let sheen = 0.85 + 0.15 * (1.0 - ((yf - bar_y) / (h * 0.5)).abs());
                    c = mix(c, [col[0] * sheen, col[1] * sheen, col[2] * sheen], cov);
                }
            }
            if glow > 0.0 {
                let col = mix(c_a, c_b, (xf - x0) / (SIZE as f32 - 2.0 * x0));
                c = add(c, col, glow * 0.35);
            }
            store(px, vignette(c, xf, yf), x, y);
        }
    }
}

/// Signed distance to a rounded box centred at the origin.
fn round_box(px: f32, py: f32, hw: f32, hh: f32, r: f32) -> f32 {
    let qx = px.abs() - hw + r;
    let qy = py.abs() - hh + r;
    let outside = (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt();
    outside + qx.max(qy).min(0.0) - r
}

fn vignette(c: Rgb, x: f32, y: f32) -> Rgb {
    let dx = x / SIZE as f32 - 0.5;
    let dy = y / SIZE as f32 - 0.5;
    let k = 1.0 - 0.45 * smooth01((dx * dx + dy * dy) * 2.2);
    [c[0] * k, c[1] * k, c[2] * k]
}

/// 4x4 ordered dither (about half a code value) hides banding in the smooth gradients.
const BAYER: [f32; 16] = [
    0.0, 8.0, 2.0, 10.0, 12.0, 4.0, 14.0, 6.0, 3.0, 11.0, 1.0, 9.0, 15.0, 7.0, 13.0, 5.0,
];

#[inline(always)]
fn store(px: &mut [u8], c: Rgb, x: usize, y: usize) {
    let d = BAYER.get((y % 4) * 4 + x % 4).copied().unwrap_or(0.0) / 16.0 - 0.47;
    for (o, v) in px.iter_mut().zip(c) {
        *o = (v.clamp(0.0, 1.0) * 255.0 + 0.5 + d).clamp(0.0, 255.0) as u8;
    }
}

/// A 512x512 8-bit RGB PNG cover, deterministic in `seed`. Style 0 is a dusk landscape
/// (multi-stop gradient sky, glowing sun, soft circles, hills); style 1 is geometric
/// (broken concentric rings and waveform bars on a dark striped field). Other style
/// values use `style % 2`. Empty `Vec` only if encoding fails.
pub fn cover_png(seed: u64, style: u8) -> Vec<u8> {
    let mut rng = Rng::new(seed ^ 0xC0FE_u64.rotate_left(40) ^ u64::from(style % 2));
    let mut img = vec![0u8; SIZE * SIZE * 3];
    if style.is_multiple_of(2) {
        paint_landscape(&mut rng, &mut img);
    } else {
        paint_rings(&mut rng, &mut img);
    }
    let mut out = Vec::with_capacity(img.len() / 3);
    let ok = (|| -> Result<(), png::EncodingError> {
        let mut enc = png::Encoder::new(&mut out, SIZE as u32, SIZE as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let mut w = enc.write_header()?;
        w.write_image_data(&img)?;
        w.finish()
    })();
    if ok.is_ok() {
        out
    } else {
        Vec::new()
    }
}

// ---------------------------------------------------------------------------
// MP4
// ---------------------------------------------------------------------------

/// One ISO-BMFF box: 32-bit big-endian size, four-character type, payload.
fn mp4_box(kind: &[u8; 4], payload: &[u8]) -> Vec<u8> {
    let mut b = Vec::with_capacity(8 + payload.len());
    b.extend_from_slice(
        &u32::try_from(8 + payload.len())
            .unwrap_or(u32::MAX)
            .to_be_bytes(),
    );
    b.extend_from_slice(kind);
    b.extend_from_slice(payload);
    b
}

/// A "full box": version and flags precede the payload.
fn mp4_full_box(kind: &[u8; 4], version: u8, flags: u32, payload: &[u8]) -> Vec<u8> {
    let mut p = Vec::with_capacity(4 + payload.len());
    p.push(version);
    p.extend_from_slice(&flags.to_be_bytes()[1..]);
    p.extend_from_slice(payload);
    mp4_box(kind, &p)
}

/// Identity transformation matrix used by mvhd and tkhd.
const MATRIX: [u32; 9] = [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000];

/// A small, structurally valid MP4 (ISO-BMFF) file: `ftyp` (major brand `mp42`, so
/// browser content sniffing answers video/mp4), `moov` with a movie header and one
/// 320x180 video track whose sample tables are empty, and an `mdat` holding seed-derived
/// bytes. It is NOT a playable video: no encoded frames are present. Deterministic in `seed`.
pub fn tiny_mp4(seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed ^ 0x6D70_3432);
    let duration_ms: u32 = 30_000 + (rng.below(30) as u32) * 1000;
    let (w, h): (u32, u32) = (320, 180);

    let mut ftyp = Vec::new();
    ftyp.extend_from_slice(b"mp42");
    ftyp.extend_from_slice(&0u32.to_be_bytes());
    for brand in [b"mp42", b"isom", b"mp41", b"avc1"] {
        ftyp.extend_from_slice(brand);
    }
    let ftyp = mp4_box(b"ftyp", &ftyp);

    let mut mvhd = Vec::new();
    mvhd.extend_from_slice(&0u32.to_be_bytes()); // creation time
    mvhd.extend_from_slice(&0u32.to_be_bytes()); // modification time
    mvhd.extend_from_slice(&1000u32.to_be_bytes()); // timescale
    mvhd.extend_from_slice(&duration_ms.to_be_bytes());
    mvhd.extend_from_slice(&0x0001_0000u32.to_be_bytes()); // rate 1.0
    mvhd.extend_from_slice(&0x0100u16.to_be_bytes()); // volume 1.0
    mvhd.extend_from_slice(&[0; 10]);
    MATRIX
        .iter()
        .for_each(|m| mvhd.extend_from_slice(&m.to_be_bytes()));
    mvhd.extend_from_slice(&[0; 24]);
    mvhd.extend_from_slice(&2u32.to_be_bytes()); // next track id
    let mvhd = mp4_full_box(b"mvhd", 0, 0, &mvhd);

    let mut tkhd = Vec::new();
    tkhd.extend_from_slice(&[0; 8]); // creation, modification
    tkhd.extend_from_slice(&1u32.to_be_bytes()); // track id
    tkhd.extend_from_slice(&[0; 4]);
    tkhd.extend_from_slice(&duration_ms.to_be_bytes());
    tkhd.extend_from_slice(&[0; 8]);
    tkhd.extend_from_slice(&[0; 4]); // layer, alternate group
    tkhd.extend_from_slice(&[0; 4]); // volume (video: 0), reserved
    MATRIX
        .iter()
        .for_each(|m| tkhd.extend_from_slice(&m.to_be_bytes()));
    tkhd.extend_from_slice(&(w << 16).to_be_bytes());
    tkhd.extend_from_slice(&(h << 16).to_be_bytes());
    let tkhd = mp4_full_box(b"tkhd", 0, 3, &tkhd);

    let mut mdhd = Vec::new();
    mdhd.extend_from_slice(&[0; 8]);
    mdhd.extend_from_slice(&1000u32.to_be_bytes());
    mdhd.extend_from_slice(&duration_ms.to_be_bytes());
    mdhd.extend_from_slice(&0x55C4u16.to_be_bytes()); // language "und"
    mdhd.extend_from_slice(&[0; 2]);
    let mdhd = mp4_full_box(b"mdhd", 0, 0, &mdhd);

    let mut hdlr = Vec::new();
    hdlr.extend_from_slice(&[0; 4]);
    hdlr.extend_from_slice(b"vide");
    hdlr.extend_from_slice(&[0; 12]);
    hdlr.extend_from_slice(b"VideoHandler\0");
    let hdlr = mp4_full_box(b"hdlr", 0, 0, &hdlr);

    let vmhd = mp4_full_box(b"vmhd", 0, 1, &[0; 8]);
    let url = mp4_full_box(b"url ", 0, 1, &[]);
    let dref = mp4_full_box(b"dref", 0, 0, &[&1u32.to_be_bytes()[..], &url].concat());
    let dinf = mp4_box(b"dinf", &dref);
    let zero = 0u32.to_be_bytes();
    let stbl = mp4_box(
        b"stbl",
        &[
            mp4_full_box(b"stsd", 0, 0, &zero),
            mp4_full_box(b"stts", 0, 0, &zero),
            mp4_full_box(b"stsc", 0, 0, &zero),
            mp4_full_box(b"stsz", 0, 0, &[zero, zero].concat()),
            mp4_full_box(b"stco", 0, 0, &zero),
        ]
        .concat(),
    );
    let minf = mp4_box(b"minf", &[vmhd, dinf, stbl].concat());
    let mdia = mp4_box(b"mdia", &[mdhd, hdlr, minf].concat());
    let trak = mp4_box(b"trak", &[tkhd, mdia].concat());
    let moov = mp4_box(b"moov", &[mvhd, trak].concat());

    let payload: Vec<u8> = (0..256).map(|_| (rng.next_u64() >> 56) as u8).collect();
    let mdat = mp4_box(b"mdat", &payload);
    [ftyp, moov, mdat].concat()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> (hound::WavSpec, Vec<i16>) {
        let mut r = hound::WavReader::new(Cursor::new(bytes)).unwrap();
        let spec = r.spec();
        let s = r.samples::<i16>().map(|s| s.unwrap()).collect();
        (spec, s)
    }

    /// A test source: a 440 Hz tone in the requested format.
    fn tone_wav(rate: u32, channels: u16, bits: u16, float: bool, seconds: f32) -> Vec<u8> {
        let spec = hound::WavSpec {
            channels,
            sample_rate: rate,
            bits_per_sample: bits,
            sample_format: if float {
                hound::SampleFormat::Float
            } else {
                hound::SampleFormat::Int
            },
        };
        let mut out = Vec::new();
        let mut w = hound::WavWriter::new(Cursor::new(&mut out), spec).unwrap();
        let frames = (seconds * rate as f32) as usize;
        for i in 0..frames {
            let v = 0.5 * (TAU * 440.0 * i as f32 / rate as f32).sin();
            for _ in 0..channels {
                if float {
                    w.write_sample(v).unwrap();
                } else {
                    let max = ((1i64 << (bits - 1)) - 1) as f32;
                    w.write_sample((v * max) as i32).unwrap();
                }
            }
        }
        w.finalize().unwrap();
        out
    }

    fn stats(samples: &[i16]) -> (f32, f32, f32) {
        let n = samples.len().max(1) as f32;
        let f: Vec<f32> = samples.iter().map(|&s| s as f32 / 32768.0).collect();
        let peak = f.iter().fold(0.0f32, |m, s| m.max(s.abs()));
        let rms = (f.iter().map(|s| s * s).sum::<f32>() / n).sqrt();
        let dc = f.iter().sum::<f32>() / n;
        (peak, rms, dc)
    }

    #[test]
    fn synth_is_deterministic_and_seed_dependent() {
        let a = synth_track(7, 5.0, None);
        assert_eq!(a, synth_track(7, 5.0, None));
        assert_ne!(a, synth_track(8, 5.0, None));
    }

    #[test]
    fn synth_duration_is_exact_and_header_valid() {
        for secs in [0.5f32, 3.3, 7.0, 30.0] {
            let wav = synth_track(42, secs, None);
            let (spec, s) = read(&wav);
            assert_eq!(
                (spec.channels, spec.sample_rate, spec.bits_per_sample),
                (1, 22_050, 16)
            );
            assert!((s.len() as f32 - secs * 22_050.0).abs() <= 1.0);
            let d = wav_duration(&wav).unwrap();
            assert!((d - secs).abs() <= 1.0 / 22_050.0, "{d} vs {secs}");
        }
    }

    #[test]
    fn synth_levels_are_sane() {
        for seed in 0..8u64 {
            let (_, s) = read(&synth_track(seed, 30.0, None));
            let (peak, rms, dc) = stats(&s);
            println!(
                "seed {seed}: peak {peak:.3} ({:.2} dBFS) rms {rms:.3} ({:.1} dBFS) dc {dc:.5}",
                20.0 * peak.log10(),
                20.0 * rms.log10()
            );
            assert!((peak - 0.891).abs() < 0.01, "peak {peak}");
            assert!(rms > 0.08 && rms < 0.5, "rms {rms}");
            assert!(dc.abs() < 0.005, "dc {dc}");
            // Fade in/out: the very first and last samples are (near) silent.
            assert!(s[0].abs() < 50 && s[s.len() - 1].abs() < 50);
        }
    }

    #[test]
    fn bad_inputs_do_not_panic() {
        for secs in [f32::NAN, -1.0, 0.0, f32::INFINITY] {
            let wav = synth_track(1, secs, None);
            assert_eq!(wav_duration(&wav), Some(0.0));
        }
        assert_eq!(wav_duration(b"nope"), None);
        assert_eq!(wav_duration(&[]), None);
        assert!(to_wav_44k(b"RIFF....WAVE").is_empty());
        assert!(stems(b"garbage", 2).is_empty());
        assert!(stems(&synth_track(1, 1.0, None), 0).is_empty());
        // Undecodable source is ignored, the requested length is used.
        let wav = synth_track(1, 2.0, Some(b"not a wav"));
        assert_eq!(wav, synth_track(1, 2.0, None));
        // Truncated file: duration counts only the frames present.
        let full = synth_track(3, 2.0, None);
        let cut = &full[..full.len() / 2];
        let d = wav_duration(cut).unwrap();
        assert!(d > 0.9 && d < 1.01, "{d}");
        assert!(!synth_track(1, 5.0, Some(cut)).is_empty());
    }

    #[test]
    fn source_is_mixed_and_sets_length() {
        let formats = [
            (44_100, 2, 16, false),
            (8_000, 1, 8, false),
            (48_000, 2, 24, false),
            (32_000, 1, 32, false),
            (16_000, 2, 32, true),
        ];
        for (rate, ch, bits, float) in formats {
            let src = tone_wav(rate, ch, bits, float, 2.5);
            let out = synth_track(9, 10.0, Some(&src));
            let d = wav_duration(&out).unwrap();
            assert!((d - 2.5).abs() <= 1.5 / 22_050.0, "{rate}/{ch}/{bits}: {d}");
            assert_ne!(out, synth_track(9, 2.5, None));
            // The 440 Hz tone dominates: correlate with it.
            let (_, s) = read(&out);
            let corr: f32 = s
                .iter()
                .enumerate()
                .map(|(i, &v)| v as f32 * (TAU * 440.0 * i as f32 / 22_050.0).sin())
                .sum::<f32>()
                / s.len() as f32
                / 32768.0;
            assert!(corr.abs() > 0.1, "{rate}/{ch}/{bits}: correlation {corr}");
        }
        // Long sources are capped at 120 s.
        let long = tone_wav(8_000, 1, 16, false, 125.0);
        let d = wav_duration(&synth_track(1, 1.0, Some(&long))).unwrap();
        assert!((d - 120.0).abs() < 1e-3, "{d}");
    }

    #[test]
    fn fast_16_bit_decode_matches_hound() {
        let wav = tone_wav(44_100, 2, 16, false, 0.3);
        let pcm = decode(&wav, 10.0).unwrap();
        let (_, expected) = read(&wav);
        assert_eq!(pcm.channels, 2);
        assert_eq!(pcm.data.len(), expected.len());
        assert!(pcm
            .data
            .iter()
            .zip(&expected)
            .all(|(a, &b)| *a == b as f32 / 32768.0));
        assert_eq!(block_align(&wav), Some(4));
        // Trailing chunks after the data are not read as audio.
        let mut with_tail = wav.clone();
        with_tail.extend_from_slice(b"LIST\x04\0\0\0abcd");
        assert_eq!(decode(&with_tail, 10.0).unwrap().data.len(), expected.len());
    }

    #[test]
    fn conversion_to_44k() {
        let src = synth_track(5, 4.0, None);
        let out = to_wav_44k(&src);
        let (spec, s) = read(&out);
        assert_eq!(
            (spec.channels, spec.sample_rate, spec.bits_per_sample),
            (2, 44_100, 16)
        );
        assert!(out.len() > src.len() * 3, "{} vs {}", out.len(), src.len());
        assert!((wav_duration(&out).unwrap() - 4.0).abs() < 1e-4);
        assert_eq!(s.len(), 4 * 44_100 * 2);
        // Stereo float input keeps its duration too.
        let f = tone_wav(48_000, 2, 32, true, 1.5);
        assert!((wav_duration(&to_wav_44k(&f)).unwrap() - 1.5).abs() < 1e-4);
    }

    #[test]
    fn stems_have_count_length_and_differ() {
        let src = synth_track(11, 6.0, None);
        let (_, orig) = read(&src);
        for n in [1usize, 2, 4, 12] {
            let st = stems(&src, n);
            assert_eq!(st.len(), n);
            let decoded: Vec<Vec<i16>> = st.iter().map(|w| read(w).1).collect();
            for d in &decoded {
                assert_eq!(d.len(), orig.len());
            }
            for i in 0..n {
                for j in i + 1..n {
                    assert_ne!(decoded[i], decoded[j], "stems {i} and {j} of {n}");
                }
            }
            // Bands are complementary: they add back to the track (up to rounding).
            let max_err = (0..orig.len())
                .map(|k| (decoded.iter().map(|d| d[k] as i32).sum::<i32>() - orig[k] as i32).abs())
                .max()
                .unwrap();
            assert!(max_err <= n as i32, "sum error {max_err}");
            if n == 2 {
                let (_, rv, _) = stats(&decoded[0]);
                let (_, ri, _) = stats(&decoded[1]);
                println!("vocal rms {rv:.3}, instrumental rms {ri:.3}");
                assert!(rv > 0.01 && ri > 0.01);
            }
        }
        // Stereo input keeps its channel count.
        let st = stems(&tone_wav(44_100, 2, 16, false, 0.5), 2);
        assert_eq!(read(&st[0]).0.channels, 2);
    }

    fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
        let dec = png::Decoder::new(Cursor::new(bytes));
        let mut reader = dec.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        (info.width, info.height, buf)
    }

    #[test]
    fn covers_are_valid_deterministic_and_styles_differ() {
        for seed in [1u64, 2] {
            for style in [0u8, 1] {
                let png = cover_png(seed, style);
                assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
                let (w, h, px) = decode_png(&png);
                assert_eq!((w, h), (512, 512));
                assert_eq!(png, cover_png(seed, style));
                let _ = std::fs::write(format!("/tmp/cover-{seed}-{style}.png"), &png);
                println!("cover seed {seed} style {style}: {} bytes", png.len());
                // Not flat: plenty of distinct colours.
                let mut seen = std::collections::HashSet::new();
                for p in px.chunks(3) {
                    seen.insert((p[0], p[1], p[2]));
                }
                assert!(seen.len() > 1000);
            }
            assert_ne!(cover_png(seed, 0), cover_png(seed, 1));
        }
        assert_ne!(cover_png(1, 0), cover_png(2, 0));
        assert_ne!(cover_png(1, 1), cover_png(2, 1));
        // Style 0 is much brighter on average than the dark style 1.
        let mean = |s| {
            decode_png(&cover_png(3, s))
                .2
                .iter()
                .map(|&v| v as u64)
                .sum::<u64>()
                / (512 * 512 * 3)
        };
        assert!(mean(0) > mean(1) + 20, "{} {}", mean(0), mean(1));
    }

    /// Walks top-level boxes, checking sizes add up to the file.
    fn boxes(b: &[u8]) -> Vec<(String, usize)> {
        let mut out = Vec::new();
        let mut i = 0;
        while i + 8 <= b.len() {
            let size = u32::from_be_bytes(b[i..i + 4].try_into().unwrap()) as usize;
            out.push((String::from_utf8_lossy(&b[i + 4..i + 8]).into_owned(), size));
            assert!(size >= 8);
            i += size;
        }
        assert_eq!(i, b.len());
        out
    }

    #[test]
    fn mp4_structure() {
        let m = tiny_mp4(1);
        assert_eq!(&m[4..8], b"ftyp");
        // WHATWG mime sniffing: box size multiple of 4 and an "mp4" brand.
        let size = u32::from_be_bytes(m[0..4].try_into().unwrap());
        assert_eq!(size % 4, 0);
        assert_eq!(&m[8..11], b"mp4");
        let names: Vec<String> = boxes(&m).into_iter().map(|b| b.0).collect();
        assert_eq!(names, ["ftyp", "moov", "mdat"]);
        // moov's children are well formed too.
        let moov_at = boxes(&m)[0].1;
        let moov_len = boxes(&m)[1].1;
        let children: Vec<String> = boxes(&m[moov_at + 8..moov_at + moov_len])
            .into_iter()
            .map(|b| b.0)
            .collect();
        assert_eq!(children, ["mvhd", "trak"]);
        assert_eq!(m, tiny_mp4(1));
        assert_ne!(m, tiny_mp4(2));
        assert!(m.len() < 2048);
    }

    #[test]
    #[ignore = "timing report, run with --release -- --ignored --nocapture"]
    fn timings() {
        use std::time::Instant;
        let t = Instant::now();
        let wav = synth_track(123, 30.0, None);
        println!("synth 30 s: {:?}, {} bytes", t.elapsed(), wav.len());
        let src = tone_wav(44_100, 2, 16, false, 30.0);
        let t = Instant::now();
        let mixed = synth_track(123, 1.0, Some(&src));
        println!(
            "synth+mix 30 s source: {:?}, {} bytes",
            t.elapsed(),
            mixed.len()
        );
        let t = Instant::now();
        let w44 = to_wav_44k(&wav);
        println!("to_wav_44k 30 s: {:?}, {} bytes", t.elapsed(), w44.len());
        let t = Instant::now();
        let st = stems(&wav, 2);
        println!(
            "stems(2) 30 s: {:?}, {} bytes each",
            t.elapsed(),
            st[0].len()
        );
        let t = Instant::now();
        let st = stems(&wav, 12);
        println!("stems(12) 30 s: {:?}, {} stems", t.elapsed(), st.len());
        for style in [0, 1] {
            let t = Instant::now();
            let png = cover_png(99, style);
            println!(
                "cover style {style}: {:?}, {} bytes",
                t.elapsed(),
                png.len()
            );
        }
        let t = Instant::now();
        let m = tiny_mp4(5);
        println!("mp4: {:?}, {} bytes", t.elapsed(), m.len());
    }
}
