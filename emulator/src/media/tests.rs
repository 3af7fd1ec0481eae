//! Tests of the media: real, decodable files, and the same bytes for the same seed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::f32::consts::TAU;
use std::io::Cursor;

use super::cover::cover_png;
use super::mp4::music_video;
use super::stems::synth_track;
use super::wav::{block_align, decode, to_wav_44k, wav_duration};

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
    assert!(super::mix::replace_window(b"garbage", 1.0, 2.0, 1).is_empty());
    assert!(super::mix::mix(&[b"garbage"]).is_empty());
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
    let st = super::stems::part_track(123, 30.0, None, &[super::stems::Part::Bass]);
    println!("one stem 30 s: {:?}, {} bytes", t.elapsed(), st.len());
    let t = Instant::now();
    let snd = super::sounds::sound_wav(123, Some(120), "Am", true, 30.0);
    println!("sound loop 30 s: {:?}, {} bytes", t.elapsed(), snd.len());
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
    let m = music_video(&wav, 5);
    println!("music video 30 s: {:?}, {} bytes", t.elapsed(), m.len());
}

#[test]
fn composition_is_deterministic_for_a_seed() {
    use super::composition::{compose, Song};
    let key = |s: &Song| {
        s.notes
            .iter()
            .map(|n| (n.start, n.len, n.freq.to_bits(), n.vel.to_bits(), n.noise))
            .collect::<Vec<_>>()
    };
    let total = 22_050 * 8;
    let a = key(&compose(11, total));
    assert!(!a.is_empty());
    assert_eq!(a, key(&compose(11, total)));
    assert_ne!(a, key(&compose(12, total)));
}
