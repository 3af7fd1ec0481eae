//! Tests that listen: the tempo, key, pitches and seams a listener would hear, measured in the
//! audio the media functions write, against what they were asked for.
//! Over 400 lines on purpose: the measures that stand for a listener's ear (pitch, tempo, key,
//! power) are written here, beside the tests that use them and nowhere else.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::f32::consts::TAU;
use std::io::Cursor;

use super::mix::{mix, replace_window};
use super::sounds::{parse_key, sound_wav};
use super::stems::{part_notes, part_track, synth_track, Part};

const RATE: f32 = 22_050.0;

fn samples(wav: &[u8]) -> (u32, u16, Vec<f32>) {
    let mut r = hound::WavReader::new(Cursor::new(wav)).unwrap();
    let spec = r.spec();
    assert_eq!(spec.bits_per_sample, 16);
    let s = r
        .samples::<i16>()
        .map(|s| f32::from(s.unwrap()) / 32768.0)
        .collect();
    (spec.sample_rate, spec.channels, s)
}

fn raw(wav: &[u8]) -> Vec<i16> {
    let mut r = hound::WavReader::new(Cursor::new(wav)).unwrap();
    r.samples::<i16>().map(|s| s.unwrap()).collect()
}

/// Power of `x` at `freq` Hz (Goertzel over a Hann window).
fn power(x: &[f32], freq: f32, rate: f32) -> f32 {
    let n = x.len() as f32;
    let k = 2.0 * (TAU * freq / rate).cos();
    let (mut s1, mut s2) = (0.0f32, 0.0f32);
    for (i, v) in x.iter().enumerate() {
        let w = 0.5 - 0.5 * (TAU * i as f32 / n).cos();
        let s = v * w + k * s1 - s2;
        s2 = s1;
        s1 = s;
    }
    s1 * s1 + s2 * s2 - k * s1 * s2
}

fn hz(midi: f32) -> f32 {
    440.0 * 2f32.powf((midi - 69.0) / 12.0)
}

/// The MIDI pitch (24..=108) with the most power in `x`.
fn dominant_pitch(x: &[f32]) -> u8 {
    (24u8..=108)
        .max_by(|a, b| {
            power(x, hz(f32::from(*a)), RATE).total_cmp(&power(x, hz(f32::from(*b)), RATE))
        })
        .unwrap()
}

/// Tempo by autocorrelation of the onset envelope (positive energy flux in 1.45 ms frames,
/// smoothed over ±10 ms so an onset that falls between two frames still lines up): the shortest lag, between 30 and
/// 320 BPM, whose correlation is within 80 % of the best.
fn estimate_bpm(x: &[f32]) -> f32 {
    let hop = 32usize;
    let energy: Vec<f32> = x
        .chunks(hop)
        .map(|c| c.iter().map(|s| s * s).sum::<f32>())
        .collect();
    let flux: Vec<f32> = energy
        .windows(2)
        .map(|w| (w[1] - w[0]).max(0.0))
        .collect::<Vec<f32>>()
        .windows(15)
        .map(|w| {
            w.iter()
                .enumerate()
                .map(|(i, v)| v * (8.0 - (i as f32 - 7.0).abs()))
                .sum()
        })
        .collect();
    let mean = flux.iter().sum::<f32>() / flux.len() as f32;
    let f: Vec<f32> = flux.iter().map(|v| v - mean).collect();
    let frame_s = hop as f32 / RATE;
    let lag_min = (60.0 / 320.0 / frame_s) as usize;
    let lag_max = ((60.0 / 30.0 / frame_s) as usize).min(f.len() / 2);
    let acf: Vec<(usize, f32)> = (lag_min..=lag_max)
        .map(|l| {
            let c: f32 = f.iter().zip(&f[l..]).map(|(a, b)| a * b).sum();
            (l, c / (f.len() - l) as f32)
        })
        .collect();
    let best = acf.iter().map(|a| a.1).fold(f32::MIN, f32::max);
    let is_peak = |i: usize| {
        let v = acf[i].1;
        (i == 0 || acf[i - 1].1 <= v) && (i + 1 == acf.len() || acf[i + 1].1 <= v)
    };
    let i = (0..acf.len())
        .find(|&i| acf[i].1 >= 0.8 * best && is_peak(i))
        .unwrap();
    // Parabolic interpolation around the peak for sub-frame precision.
    let (l, v) = acf[i];
    let (p, n) = (
        acf.get(i.wrapping_sub(1)).map_or(v, |a| a.1),
        acf.get(i + 1).map_or(v, |a| a.1),
    );
    let denom = p - 2.0 * v + n;
    let shift = if denom.abs() > 1e-12 {
        0.5 * (p - n) / denom
    } else {
        0.0
    };
    60.0 / ((l as f32 + shift) * frame_s)
}

/// Krumhansl-Kessler key profiles (C major, C minor).
const KK_MAJOR: [f32; 12] = [
    6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88,
];
const KK_MINOR: [f32; 12] = [
    6.33, 2.68, 3.52, 5.38, 2.60, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17,
];

/// The key (tonic pitch class, minor?) whose profile best correlates with the chroma of `x`
/// (Goertzel magnitude at every semitone from C3 to B6, above the kick's sweep, in 186 ms frames, summed over the
/// frames and folded into twelve pitch classes).
fn estimate_key(x: &[f32]) -> (u8, bool) {
    let mut chroma = [0.0f32; 12];
    for frame in x.chunks_exact(4096) {
        for m in 48..96 {
            chroma[m % 12] += power(frame, hz(m as f32), RATE).sqrt();
        }
    }
    let corr = |profile: &[f32; 12], tonic: usize| {
        let pm = profile.iter().sum::<f32>() / 12.0;
        let cm = chroma.iter().sum::<f32>() / 12.0;
        let (mut num, mut a, mut b) = (0.0, 0.0, 0.0);
        for (pc, c) in chroma.iter().enumerate() {
            let p = profile[(pc + 12 - tonic) % 12] - pm;
            num += p * (c - cm);
            a += p * p;
            b += (c - cm) * (c - cm);
        }
        num / (a * b).sqrt()
    };
    let mut best = (0u8, false, f32::MIN);
    for tonic in 0..12 {
        for (minor, profile) in [(false, &KK_MAJOR), (true, &KK_MINOR)] {
            let c = corr(profile, tonic);
            if c > best.2 {
                best = (tonic as u8, minor, c);
            }
        }
    }
    (best.0, best.1)
}

#[test]
fn a_sound_plays_at_the_requested_tempo() {
    let mut worst = 0.0f32;
    for (seed, bpm) in [
        (1u64, 60u32),
        (2, 90),
        (3, 128),
        (4, 174),
        (5, 300),
        (6, 45),
        (7, 100),
        (8, 140),
        (9, 211),
        (10, 77),
    ] {
        for looped in [false, true] {
            let (_, _, x) = samples(&sound_wav(seed, Some(bpm), "Any", looped, 12.0));
            let est = estimate_bpm(&x);
            let err = (est - bpm as f32).abs() / bpm as f32;
            println!(
                "tempo {bpm} looped {looped}: measured {est:.2} ({:.2} %)",
                err * 100.0
            );
            worst = worst.max(err);
            assert!(err < 0.03, "asked {bpm}, measured {est}");
        }
    }
    println!("worst tempo error {:.2} %", worst * 100.0);
}

#[test]
fn a_sound_is_in_the_requested_key() {
    let names = [
        "C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B", "Cm", "C#m", "Dm", "D#m",
        "Em", "Fm", "F#m", "Gm", "G#m", "Am", "A#m", "Bm",
    ];
    for (i, key) in names.iter().enumerate() {
        // Every key once as a loop, once as a one-shot at another seed and tempo.
        let looped = samples(&sound_wav(i as u64, Some(100), key, true, 8.0)).2;
        assert_eq!(
            estimate_key(&looped),
            parse_key(key).unwrap(),
            "loop in {key}"
        );
        let (_, _, x) = samples(&sound_wav(
            100 + i as u64,
            Some(70 + 5 * i as u32),
            key,
            false,
            8.0,
        ));
        assert_eq!(
            estimate_key(&x),
            parse_key(key).unwrap(),
            "one-shot in {key}"
        );
    }
    assert_eq!(parse_key("Any"), None);
    assert_eq!(parse_key("H"), None);
    // `Any` still plays in one key, the same for the same seed.
    assert_eq!(
        sound_wav(9, None, "Any", false, 3.0),
        sound_wav(9, None, "Any", false, 3.0)
    );
}

#[test]
fn a_loop_is_whole_beats_and_joins_without_a_click() {
    for (seed, bpm, secs) in [
        (1u64, 120u32, 8.0f32),
        (2, 128, 10.0),
        (3, 93, 7.3),
        (4, 300, 1.0),
    ] {
        let wav = sound_wav(seed, Some(bpm), "Em", true, secs);
        let (_, _, x) = samples(&wav);
        let beat = super::sounds::beat_samples(bpm);
        assert_eq!(x.len() % beat, 0, "{bpm} BPM: {} samples", x.len());
        assert_eq!(x.len() / beat, (secs * bpm as f32 / 60.0).round() as usize);
        let mut steps: Vec<f32> = x.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
        let seam = (x[0] - x[x.len() - 1]).abs();
        steps.sort_by(f32::total_cmp);
        let p99 = steps[steps.len() * 99 / 100];
        println!("{bpm} BPM: seam step {seam:.4}, 99th percentile step {p99:.4}");
        assert!(seam <= p99, "seam {seam} against p99 {p99}");
    }
    // Without the fold a sound that ends on a ringing chord would jump at the seam: the
    // non-looped version fades out, the loop does not.
    let (_, _, x) = samples(&sound_wav(1, Some(120), "C", true, 8.0));
    let tail = x[x.len() - 2205..]
        .iter()
        .map(|s| s.abs())
        .fold(0.0, f32::max);
    assert!(tail > 0.05, "a loop keeps playing to its last sample");
}

#[test]
fn sound_lengths_and_bad_inputs() {
    let (_, _, x) = samples(&sound_wav(1, Some(100), "D", false, 4.5));
    assert_eq!(x.len(), (4.5 * RATE) as usize);
    for secs in [f32::NAN, -1.0, 0.0] {
        let w = sound_wav(1, Some(0), "nonsense", true, secs);
        let (_, _, x) = samples(&w);
        assert!(!x.is_empty(), "a loop holds at least one beat");
        assert!(samples(&sound_wav(1, Some(999), "", false, secs))
            .2
            .is_empty());
    }
}

#[test]
fn stems_add_up_to_the_track() {
    let (seed, secs) = (21u64, 9.0f32);
    let track = raw(&synth_track(seed, secs, None));
    let sets: [&[Part]; 6] = [
        &[Part::Melody, Part::Source],
        &[Part::Chords],
        &[Part::Arpeggio],
        &[Part::Bass],
        &[Part::Drums],
        &[Part::Percussion],
    ];
    let stems: Vec<Vec<i16>> = sets
        .iter()
        .map(|p| raw(&part_track(seed, secs, None, p)))
        .collect();
    for (s, p) in stems.iter().zip(&sets) {
        assert_eq!(s.len(), track.len());
        assert!(s.iter().any(|v| v.unsigned_abs() > 300), "{p:?} is audible");
    }
    let err = (0..track.len())
        .map(|k| (stems.iter().map(|d| i32::from(d[k])).sum::<i32>() - i32::from(track[k])).abs())
        .max()
        .unwrap();
    assert!(err <= 6, "sum error {err}");
    assert!(raw(&part_track(seed, secs, None, &[]))
        .iter()
        .all(|v| *v == 0));
}

#[test]
fn stems_with_an_uploaded_source_add_up_too() {
    let src = synth_track(5, 4.0, None);
    let track = raw(&synth_track(6, 30.0, Some(&src)));
    let vocal = raw(&part_track(
        6,
        30.0,
        Some(&src),
        &[Part::Melody, Part::Source],
    ));
    let rest = raw(&part_track(
        6,
        30.0,
        Some(&src),
        &[
            Part::Chords,
            Part::Arpeggio,
            Part::Bass,
            Part::Drums,
            Part::Percussion,
        ],
    ));
    assert_eq!(track.len(), (4.0 * RATE) as usize);
    let err = (0..track.len())
        .map(|k| (i32::from(vocal[k]) + i32::from(rest[k]) - i32::from(track[k])).abs())
        .max()
        .unwrap();
    assert!(err <= 2, "sum error {err}");
}

#[test]
fn midi_of_a_stem_is_what_its_audio_plays() {
    for seed in [3u64, 4] {
        let secs = 16.0;
        for part in [Part::Melody, Part::Bass, Part::Arpeggio] {
            let (_, _, x) = samples(&part_track(seed, secs, None, &[part]));
            let notes = part_notes(seed, secs, &[part]);
            assert!(notes.len() > 8, "{part:?} plays notes");
            let mut checked = 0;
            for n in &notes {
                assert!(n.end > n.start && n.end <= f64::from(secs) + 1e-9);
                assert!((0.0..=1.0).contains(&n.velocity));
                // The middle half of the note, away from the attack and the release.
                let a = ((n.start * 0.75 + n.end * 0.25) * f64::from(RATE)) as usize;
                let b = ((n.start * 0.25 + n.end * 0.75) * f64::from(RATE)) as usize;
                if b - a < 512 {
                    continue;
                }
                let b = b.min(a + 4096);
                assert_eq!(dominant_pitch(&x[a..b]), n.pitch, "{part:?} note {n:?}");
                checked += 1;
            }
            println!(
                "seed {seed} {part:?}: {checked} of {} notes heard",
                notes.len()
            );
            assert!(checked * 10 >= notes.len() * 8);
        }
        // The chords: every pitch of a chord is among the loudest of its stem.
        let (_, _, x) = samples(&part_track(seed, secs, None, &[Part::Chords]));
        for n in part_notes(seed, secs, &[Part::Chords]).iter().take(12) {
            let a = ((n.start + 0.4) * f64::from(RATE)) as usize;
            let b = ((n.end - 0.4) * f64::from(RATE)) as usize;
            let mut ranked: Vec<u8> = (24u8..=108).collect();
            let p = |m: &u8| power(&x[a..b], hz(f32::from(*m)), RATE);
            ranked.sort_by(|m1, m2| p(m2).total_cmp(&p(m1)));
            assert!(ranked[..6].contains(&n.pitch), "chord note {n:?}");
        }
        // Drums are General MIDI keys, each hit an onset in the drum stem.
        let drums = part_notes(seed, secs, &[Part::Drums]);
        assert!(drums.iter().all(|n| n.pitch == 36 || n.pitch == 38));
        let silent = part_notes(seed, secs, &[Part::Source]);
        assert!(silent.is_empty());
    }
}

fn tone(freq: f32, rate: u32, channels: u16, secs: f32, amp: f32) -> Vec<u8> {
    let spec = hound::WavSpec {
        channels,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut out = Vec::new();
    let mut w = hound::WavWriter::new(Cursor::new(&mut out), spec).unwrap();
    for i in 0..(secs * rate as f32) as usize {
        let v = amp * (TAU * freq * i as f32 / rate as f32).sin();
        for _ in 0..channels {
            w.write_sample((v * 32767.0) as i16).unwrap();
        }
    }
    w.finalize().unwrap();
    out
}

#[test]
fn a_mix_holds_every_source() {
    let a = tone(440.0, 44_100, 2, 3.0, 0.8);
    let b = tone(660.0, 16_000, 1, 2.0, 0.05);
    let out = mix(&[&a, &b]);
    let (rate, ch, x) = samples(&out);
    assert_eq!((rate, ch), (22_050, 1));
    assert_eq!(x.len(), (3.0 * RATE) as usize);
    // Both tones at comparable strength though one was recorded 24 dB quieter.
    let first = &x[..(1.5 * RATE) as usize];
    let (pa, pb) = (power(first, 440.0, RATE), power(first, 660.0, RATE));
    let off = power(first, 550.0, RATE);
    println!("440 Hz {pa:.1}, 660 Hz {pb:.1}, 550 Hz {off:.4}");
    assert!(pa > 1000.0 * off && pb > 1000.0 * off);
    assert!((pa / pb).log10().abs() < 0.5);
    // After the short source ends, only the long one plays.
    let last = &x[(2.2 * RATE) as usize..];
    assert!(power(last, 440.0, RATE) > 1000.0 * power(last, 660.0, RATE));
    // Undecodable sources are skipped; none at all gives nothing.
    assert_eq!(mix(&[&a, b"junk"]).len(), mix(&[&a]).len());
    assert!(mix(&[b"junk"]).is_empty());
    assert!(mix(&[]).is_empty());
    assert_eq!(out, mix(&[&a, &b]));
}

#[test]
fn a_replaced_window_changes_only_the_window() {
    let sources = [
        synth_track(8, 40.0, None),
        tone(330.0, 44_100, 2, 30.0, 0.6),
    ];
    for src in &sources {
        let (rate, ch, _) = samples(src);
        let before = raw(src);
        let (start, end) = (10.25, 22.5);
        let out = replace_window(src, start, end, 77);
        assert_eq!(samples(&out).0, rate);
        assert_eq!(samples(&out).1, ch);
        let after = raw(&out);
        assert_eq!(after.len(), before.len());
        let ch = usize::from(ch);
        let a = (start * f64::from(rate)).round() as usize * ch;
        let b = (end * f64::from(rate)).round() as usize * ch;
        assert_eq!(after[..a], before[..a], "before the window");
        assert_eq!(after[b..], before[b..], "after the window");
        let changed = (a..b).filter(|&i| after[i] != before[i]).count();
        assert!(changed * 10 > (b - a) * 9, "the window is new audio");
        // The window is as loud as the source around it, and the seams are not clicks.
        let level = |s: &[i16]| {
            (s.iter().map(|v| f64::from(*v).powi(2)).sum::<f64>() / s.len() as f64).sqrt()
        };
        let ratio = level(&after[a..b]) / level(&before[a..b]);
        assert!((0.5..2.0).contains(&ratio), "level ratio {ratio}");
        for edge in [a, b] {
            let jump = (i32::from(after[edge]) - i32::from(after[edge - ch])).abs();
            assert!(jump < 3000, "jump {jump} at {edge}");
        }
        assert_eq!(out, replace_window(src, start, end, 77));
        assert_ne!(out, replace_window(src, start, end, 78));
    }
    // A window past the end is cut at the end; an inverted or empty one changes nothing.
    let src = &sources[0];
    assert_eq!(raw(&replace_window(src, 5.0, 5.0, 1)), raw(src));
    assert_eq!(
        raw(&replace_window(src, f64::NAN, 3.0, 1)).len(),
        raw(src).len()
    );
    assert_eq!(
        raw(&replace_window(src, 30.0, 99.0, 1)).len(),
        raw(src).len()
    );
    assert!(replace_window(b"junk", 1.0, 2.0, 1).is_empty());
}
