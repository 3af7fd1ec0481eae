//! Sounds: a short groove at a requested tempo and key, optionally a seamless loop.

use super::composition::{Note, Voice, GM_HAT, GM_KICK, GM_SNARE};
use super::format::{MAX_SYNTH_SECONDS, PEAK, RATE, RATE_F};
use super::oscillators::{midi_to_hz, tables};
use super::render::{apply_fades, dc_block, normalize, render_note};
use super::rng::Rng;
use super::wav::write_wav;

/// Key names as the service spells them: sharps only, a trailing `m` for minor.
const PITCH_CLASSES: [&str; 12] = [
    "C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B",
];
const MAJOR_SCALE: [i32; 7] = [0, 2, 4, 5, 7, 9, 11];
const MINOR_SCALE: [i32; 7] = [0, 2, 3, 5, 7, 8, 10];
/// Longest drum hit in samples (0.35 s): a slow tempo does not stretch a kick into a drone.
const KICK: usize = (0.35 * RATE_F) as usize;
/// I IV I V (i iv i V in minor): the tonic every other bar, so even a loop of a few beats names
/// its key.
const PROGRESSION: [i32; 4] = [0, 3, 0, 4];

/// The tonic pitch class (0 = C) and mode of a key name (`C`, `F#m`...); `None` for `Any` or a
/// name that is not a key.
pub fn parse_key(key: &str) -> Option<(u8, bool)> {
    let (name, minor) = match key.strip_suffix('m') {
        Some(n) => (n, true),
        None => (key, false),
    };
    let pc = PITCH_CLASSES.iter().position(|p| *p == name)?;
    Some((pc as u8, minor))
}

/// Length in samples of one beat at `bpm`: a whole number of samples, so that a loop of whole
/// beats is sample-exact (the tempo moves by less than 0.03 % at 300 BPM).
pub fn beat_samples(bpm: u32) -> usize {
    (f64::from(RATE) * 60.0 / f64::from(bpm.clamp(1, 300))).round() as usize
}

/// The tempo a sound of `seed` plays at: the requested one when it is 1 to 300 BPM, else one
/// drawn from the seed (80 to 140).
pub fn sound_tempo(seed: u64, tempo_bpm: Option<u32>) -> u32 {
    tempo_bpm
        .filter(|t| (1..=300).contains(t))
        .unwrap_or_else(|| 80 + Rng::new(seed ^ 0x50D).below(61) as u32)
}

/// A WAV (mono, 16-bit, 22050 Hz) of a groove for `seed`: kick on every beat, snare on two and
/// four, off-beat hi-hats, a tonic pedal bass on each beat and chords with an arpeggio (I IV I V)
/// in `key` (`Any` or an unknown name: a key drawn from the seed).
///
/// With `looped` it lasts a whole number of beats (the nearest to `seconds`, at least one) and
/// is rendered circularly: notes still sounding at the end continue from the first sample, so
/// the end joins the start without a click. Without, it lasts `seconds` with short fades.
/// Lengths are capped at 600 s; a non-finite or negative `seconds` gives the shortest sound.
pub fn sound_wav(
    seed: u64,
    tempo_bpm: Option<u32>,
    key: &str,
    looped: bool,
    seconds: f32,
) -> Vec<u8> {
    write_wav(
        &sound_samples(seed, tempo_bpm, key, looped, seconds),
        RATE,
        1,
    )
}

pub(super) fn sound_samples(
    seed: u64,
    tempo_bpm: Option<u32>,
    key: &str,
    looped: bool,
    seconds: f32,
) -> Vec<f32> {
    let mut rng = Rng::new(seed);
    let bpm = sound_tempo(seed, tempo_bpm);
    let beat = beat_samples(bpm);
    let (tonic, minor) = parse_key(key).unwrap_or_else(|| (rng.below(12) as u8, rng.unit() < 0.5));
    let seconds = if seconds.is_finite() {
        seconds.clamp(0.0, MAX_SYNTH_SECONDS)
    } else {
        0.0
    };
    let max = (MAX_SYNTH_SECONDS * RATE_F) as usize;
    let total = if looped {
        let beats = (seconds * bpm as f32 / 60.0).round().max(1.0) as usize;
        (beats * beat).min((max / beat).max(1) * beat)
    } else {
        (seconds * RATE_F).round() as usize
    };
    let notes = groove(&mut rng, beat, total, tonic, minor);
    let tabs = tables();
    let longest = notes.iter().map(|n| n.len).max().unwrap_or(0);
    let mut buf = vec![0.0f32; total + longest];
    for n in &notes {
        render_note(n, &mut buf, tabs);
    }
    let (body, tail) = buf.split_at(total);
    let mut out = body.to_vec();
    if looped && total > 0 {
        // Fold what rings past the end onto the start: exactly what a repeated loop sounds like.
        for (i, s) in tail.iter().enumerate() {
            if let Some(o) = out.get_mut(i % total) {
                *o += s;
            }
        }
        // A constant offset keeps the seam continuous, where a filter would restart at it.
        let mean = out.iter().sum::<f32>() / total as f32;
        out.iter_mut().for_each(|s| *s -= mean);
    } else {
        dc_block(&mut out);
        apply_fades(&mut out, 0.01, (seconds * 0.1).min(0.5));
    }
    normalize(&mut out, PEAK);
    out
}

/// The notes of the groove, beat by beat, for `total` samples.
fn groove(rng: &mut Rng, beat: usize, total: usize, tonic: u8, minor: bool) -> Vec<Note> {
    let scale = if minor { MINOR_SCALE } else { MAJOR_SCALE };
    let degree = |d: i32| scale[d.rem_euclid(7) as usize] + 12 * d.div_euclid(7);
    let tonic = i32::from(tonic);
    let beats = total.div_ceil(beat.max(1));
    let mut notes = Vec::with_capacity(beats * 8);
    let mut push = |voice, start: usize, len: usize, pitch: i32, vel: f32, noise: u64| {
        if start < total {
            let drum = matches!(voice, Voice::Kick | Voice::Snare | Voice::Hat);
            notes.push(Note {
                voice,
                start,
                len: len.max(1),
                freq: if drum { 0.0 } else { midi_to_hz(pitch as f32) },
                pitch: pitch.clamp(0, 127) as u8,
                vel,
                noise,
            });
        }
    };
    // Two arp notes a beat, the accented one the chord's third: the third names the mode.
    let arp_order = rng.pick(&[[1usize, 0], [1, 2]], [1, 0]);
    for b in 0..beats {
        let start = b * beat;
        let bar = b / 4;
        let root = PROGRESSION[bar % 4];
        let mut triad = [degree(root), degree(root + 2), degree(root + 4)];
        if minor && root == 4 {
            // The dominant of a minor key is major (its leading tone points home).
            triad[1] += 1;
        }
        // The chord struck again on every beat (a pumping pad), voiced from G3 up: its swell
        // marks the beat, where one chord a bar would swell on the bar at fast tempos.
        for t in triad {
            let m = 55 + (tonic + t - 55).rem_euclid(12);
            push(Voice::Pad, start, beat, m, 1.0, 0);
        }
        push(
            Voice::Kick,
            start,
            (beat * 9 / 10).min(KICK),
            GM_KICK,
            1.0,
            rng.next_u64(),
        );
        if b % 2 == 1 {
            push(
                Voice::Snare,
                start,
                (beat * 9 / 10).min(KICK),
                GM_SNARE,
                0.3,
                rng.next_u64(),
            );
        }
        push(
            Voice::Hat,
            start + beat / 2,
            beat / 3,
            GM_HAT,
            0.6,
            rng.next_u64(),
        );
        // A tonic pedal in the bass: the chords move above a home that never does.
        let bass = 40 + (tonic - 40).rem_euclid(12);
        push(Voice::Bass, start, beat * 9 / 10, bass, 0.9, 0);
        for (h, idx) in arp_order.iter().enumerate() {
            let m = 67 + (tonic + triad[*idx] - 67).rem_euclid(12);
            let vel = if h == 0 { 0.8 } else { 0.6 };
            push(Voice::Arp, start + h * beat / 2, beat / 2, m, vel, 0);
        }
    }
    notes
}
