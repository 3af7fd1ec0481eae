//! Mashup and splicing: uploads mixed into one track, and a window of a track regenerated.

use super::format::{MAX_PROCESS_SECONDS, MAX_SOURCE_SECONDS, PEAK, RATE};
use super::math;
use super::render::{normalize, render_voices};
use super::wav::{decode, resample, scaled_len, write_i16, write_wav, Pcm};

/// A WAV (mono, 16-bit, 22050 Hz) mixing every decodable source: each is down-mixed, resampled,
/// brought to the same loudness (RMS) and started at zero, so each is as audible as the others.
/// Lasts as long as the longest source (capped at 120 s); undecodable sources are skipped;
/// no decodable source gives an empty `Vec`.
pub fn mix(sources: &[&[u8]]) -> Vec<u8> {
    let cap = (MAX_SOURCE_SECONDS * RATE as f32) as usize;
    let tracks: Vec<Vec<f32>> = sources
        .iter()
        .filter_map(|b| decode(b, f64::from(MAX_SOURCE_SECONDS)))
        .filter(|p| p.frames() > 0)
        .map(|p| {
            let len = scaled_len(p.frames(), p.rate, RATE).min(cap);
            let mut x = resample(&p.mono(), p.rate, RATE, len);
            let r = rms(&x);
            if r > 1e-9 {
                x.iter_mut().for_each(|s| *s *= 0.25 / r);
            }
            x
        })
        .collect();
    let Some(len) = tracks.iter().map(Vec::len).max() else {
        return Vec::new();
    };
    let mut out = vec![0.0f32; len];
    for t in &tracks {
        for (o, s) in out.iter_mut().zip(t) {
            *o += s;
        }
    }
    normalize(&mut out, PEAK);
    write_wav(&out, RATE, 1)
}

fn rms(x: &[f32]) -> f32 {
    (x.iter().map(|s| s * s).sum::<f32>() / x.len().max(1) as f32).sqrt()
}

/// Crossfade at each edge of a replaced window, inside it (50 ms, less in a short window).
const CROSSFADE_SECONDS: f64 = 0.05;

/// The frames `[start, end)` that `replace_window` rewrites in a track of `frames` frames.
fn window(start_s: f64, end_s: f64, rate: u32, frames: usize) -> (usize, usize) {
    let at = |s: f64| {
        if s.is_finite() {
            ((s.max(0.0) * f64::from(rate)).round() as usize).min(frames)
        } else {
            frames
        }
    };
    (at(start_s), at(end_s))
}

/// `source_wav` with the window `start_s..end_s` (seconds) replaced by new music for `seed`,
/// at the source's loudness: a 16-bit WAV with the source's rate and channels, in which every
/// sample outside the window is the source's own (exactly, for a 16-bit source) and the new
/// audio crossfades with the old only inside the window's edges. An empty or inverted window
/// returns the source's samples unchanged; an undecodable source gives an empty `Vec`.
pub fn replace_window(source_wav: &[u8], start_s: f64, end_s: f64, seed: u64) -> Vec<u8> {
    let Some(pcm) = decode(source_wav, MAX_PROCESS_SECONDS) else {
        return Vec::new();
    };
    let Pcm { rate, channels, .. } = pcm;
    let frames = pcm.frames();
    let (a, b) = window(start_s, end_s, rate, frames);
    // Samples as 16-bit steps, so the untouched ones are written back bit for bit.
    let mut data: Vec<f32> = pcm.data.iter().map(|s| (s * 32768.0).round()).collect();
    if b > a {
        let n = b - a;
        let len22 = scaled_len(n, rate, RATE).max(1);
        let fresh = resample(&render_voices(seed, len22, false, |_| true), RATE, rate, n);
        let ch = channels.max(1);
        let level = rms(data.get(a * ch..b * ch).unwrap_or(&[])) / 32768.0;
        let gain = level.max(0.05) / rms(&fresh).max(1e-9) * 32768.0;
        let fade = ((CROSSFADE_SECONDS * f64::from(rate)) as usize)
            .min(n / 4)
            .max(1);
        for (i, f) in fresh.iter().enumerate() {
            // 0 at the window's first and last frame, 1 in its middle: the edges stay the
            // source's own samples and the seams are as smooth as the source.
            let w = (i.min(n - 1 - i) as f32 / fade as f32).min(1.0);
            let w = 0.5 - 0.5 * math::cos(std::f32::consts::PI * w);
            for c in 0..ch {
                if let Some(s) = data.get_mut((a + i) * ch + c) {
                    *s = (1.0 - w) * *s + w * f * gain;
                }
            }
        }
    }
    write_pcm16(&data, rate, channels)
}

/// Writes samples already in 16-bit steps (rounded and clamped), keeping the rate and channels.
fn write_pcm16(steps: &[f32], rate: u32, channels: usize) -> Vec<u8> {
    let ints = steps
        .iter()
        .map(|s| s.round().clamp(-32768.0, 32767.0) as i16);
    write_i16(
        ints,
        steps.len(),
        rate,
        u16::try_from(channels).unwrap_or(1),
    )
}
