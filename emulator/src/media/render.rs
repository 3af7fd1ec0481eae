//! Rendering: notes become samples (voices, envelopes), then DC blocking, fades and normalization.

use super::math;
use std::f32::consts::PI;
use std::f32::consts::TAU;

use super::composition::{compose, Note, Voice};
use super::format::RATE_F;
use super::oscillators::{advance, decay_factor, lookup, tables, Tables};
use super::rng::Rng;
/// Adds one note into `out`; voices keep their own phase and envelope state, so the
/// inner loop is allocation free.
pub(super) fn render_note(note: &Note, out: &mut [f32], tabs: &Tables) {
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
            let a_hp = 1.0 - math::exp(-TAU * cutoff / RATE_F);
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
pub(super) fn smooth01(x: f32) -> f32 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

/// Renders only the voices `keep` selects, through the same echo, DC blocking and fades as the
/// whole song but not normalized: every step is linear, so the renders of disjoint voice sets
/// add up to the render of their union (which is what makes stems sum to their track).
/// Without `fades` it starts and ends at full level, for a section spliced into a track.
pub(super) fn render_voices(
    seed: u64,
    total: usize,
    fades: bool,
    keep: impl Fn(Voice) -> bool,
) -> Vec<f32> {
    let mut dry = vec![0.0f32; total];
    if total == 0 {
        return dry;
    }
    let tabs = tables();
    let song = compose(seed, total);
    // Arp and melody go through a dotted-eighth feedback echo for space.
    let mut wet = vec![0.0f32; total];
    for n in song.notes.iter().filter(|n| keep(n.voice)) {
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
    if fades {
        let seconds = total as f32 / RATE_F;
        apply_fades(&mut dry, (seconds * 0.1).min(0.8), (seconds * 0.2).min(2.5));
    }
    dry
}

/// One-pole DC blocker (~7 Hz): the kick's asymmetric decay leaves a small offset.
pub(super) fn dc_block(buf: &mut [f32]) {
    let (mut x1, mut y1) = (0.0f32, 0.0f32);
    for s in buf.iter_mut() {
        let y = *s - x1 + 0.998 * y1;
        x1 = *s;
        y1 = y;
        *s = y;
    }
}

/// Raised-cosine fade in and out (lengths in seconds).
pub(super) fn apply_fades(buf: &mut [f32], fade_in: f32, fade_out: f32) {
    let n = buf.len();
    let fi = ((fade_in * RATE_F) as usize).min(n);
    let fo = ((fade_out * RATE_F) as usize).min(n);
    for (i, s) in buf.iter_mut().enumerate().take(fi) {
        *s *= 0.5 - 0.5 * math::cos(PI * i as f32 / fi as f32);
    }
    for (j, s) in buf.iter_mut().rev().enumerate().take(fo) {
        *s *= 0.5 - 0.5 * math::cos(PI * j as f32 / fo as f32);
    }
}

/// Scales so the absolute peak equals `target`; silence stays silence.
pub(super) fn normalize(buf: &mut [f32], target: f32) {
    let peak = buf.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    if peak > 1e-9 {
        let g = target / peak;
        buf.iter_mut().for_each(|s| *s *= g);
    }
}
