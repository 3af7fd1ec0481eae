//! Composition: a seed becomes a whole arrangement (chords, bass, drums, melody) as a list of notes.

use super::format::RATE_F;
use super::oscillators::midi_to_hz;
use super::rng::Rng;
pub(super) const MAJOR: [i32; 7] = [0, 2, 4, 5, 7, 9, 11];

/// Semitone offset of a (possibly negative or > 6) scale degree of the major scale.
pub(super) fn degree_semis(d: i32) -> i32 {
    let idx = d.rem_euclid(7) as usize;
    MAJOR.get(idx).copied().unwrap_or(0) + 12 * d.div_euclid(7)
}

/// General MIDI drum keys, so a drum stem's MIDI plays on any GM kit.
pub(super) const GM_KICK: i32 = 36;
pub(super) const GM_SNARE: i32 = 38;
pub(super) const GM_HAT: i32 = 42;
pub(super) const GM_OPEN_HAT: i32 = 46;

/// Pop progressions that sound good in any key (0-based scale degrees).
pub(super) const PROGRESSIONS: [[i32; 4]; 8] = [
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
pub(super) const BASS_PATTERNS: [[u8; 8]; 5] = [
    [1, 0, 0, 1, 0, 0, 1, 0],
    [1, 0, 1, 0, 1, 0, 1, 2],
    [1, 0, 0, 0, 2, 0, 0, 0],
    [1, 0, 3, 0, 1, 0, 2, 0],
    [1, 0, 0, 1, 1, 0, 2, 3],
];

/// Kick placements on a 16-step bar, as bit masks (bit i = step i).
pub(super) const KICK_PATTERNS: [u16; 5] = [
    0b0000_0001_0000_0001,
    0b0000_0101_0000_0001,
    0b0000_0001_0100_0001,
    0b0001_0001_0001_0001,
    0b0000_1001_0000_1001,
];

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Voice {
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
pub(super) struct Note {
    pub(super) voice: Voice,
    pub(super) start: usize,
    pub(super) len: usize,
    pub(super) freq: f32,
    /// MIDI note number: the pitch for tonal voices, the General MIDI drum key for drums.
    pub(super) pitch: u8,
    pub(super) vel: f32,
    /// Seeds the noise of drum hits so each hit is deterministic but not identical.
    pub(super) noise: u64,
}

pub(super) struct Song {
    pub(super) notes: Vec<Note>,
    pub(super) beat: f32,
}

/// Turns the seed into a whole arrangement (list of notes) for `total` samples.
pub(super) fn compose(seed: u64, total: usize) -> Song {
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
    let mut push = |voice, start: f32, len: f32, pitch: i32, vel: f32, noise: u64| {
        let s = start.max(0.0) as usize;
        if s < total {
            let l = (len.max(1.0) as usize).min(total - s);
            let drum = matches!(
                voice,
                Voice::Kick | Voice::Snare | Voice::Hat | Voice::OpenHat
            );
            notes.push(Note {
                voice,
                start: s,
                len: l,
                freq: if drum { 0.0 } else { midi_to_hz(pitch as f32) },
                pitch: pitch.clamp(0, 127) as u8,
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
            push(Voice::Pad, bar_start, bar, m, 1.0, 0);
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
                m,
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
                    m,
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
                    push(Voice::Kick, t, 0.35 * RATE_F, GM_KICK, 1.0, noise);
                }
                if s == 4 || s == 12 {
                    push(
                        Voice::Snare,
                        t,
                        0.25 * RATE_F,
                        GM_SNARE,
                        vary(&mut rng),
                        noise,
                    );
                }
                let hat_here = if hat_sixteenths { true } else { s % 2 == 0 };
                if hat_here {
                    if s % 8 == 6 && rng.unit() < 0.5 {
                        push(Voice::OpenHat, t, 0.22 * RATE_F, GM_OPEN_HAT, 0.9, noise);
                    } else {
                        let accent = if s % 4 == 2 { 1.0 } else { 0.6 };
                        push(
                            Voice::Hat,
                            t,
                            0.08 * RATE_F,
                            GM_HAT,
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
                                m,
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
