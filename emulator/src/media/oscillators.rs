//! Oscillators: precomputed single-cycle wavetables and the phase arithmetic that reads them.

use super::math;
use std::f32::consts::TAU;
use std::sync::OnceLock;

use super::format::RATE_F;
pub(super) const TABLE_BITS: u32 = 12;
pub(super) const TABLE_LEN: usize = 1 << TABLE_BITS;

/// Single-cycle wavetables, one per timbre, each with a guard point for interpolation.
/// Precomputing the harmonic sums makes every oscillator a single lookup, which keeps a
/// 30 s render far below 100 ms even with a dozen voices sounding at once.
pub(super) struct Tables {
    pub(super) sine: Vec<f32>,
    pub(super) pad: Vec<f32>,
    pub(super) bass: Vec<f32>,
    pub(super) lead: Vec<f32>,
    /// The arp's upper partials alone; they are faded out faster than the fundamental.
    pub(super) arp_bright: Vec<f32>,
}

pub(super) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let build = |partials: &[(f32, f32)]| -> Vec<f32> {
            (0..=TABLE_LEN)
                .map(|i| {
                    let x = i as f32 / TABLE_LEN as f32 * TAU;
                    partials.iter().map(|&(h, a)| a * math::sin(h * x)).sum()
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
pub(super) fn lookup(table: &[f32], phase: f32) -> f32 {
    let p = phase * TABLE_LEN as f32;
    let whole = p as usize;
    let frac = p - whole as f32;
    let i = whole & (TABLE_LEN - 1);
    let a = table.get(i).copied().unwrap_or(0.0);
    let b = table.get(i + 1).copied().unwrap_or(0.0);
    a + (b - a) * frac
}

#[inline(always)]
pub(super) fn advance(phase: &mut f32, inc: f32) {
    *phase += inc;
    if *phase >= 1.0 {
        *phase -= 1.0;
    }
}

pub(super) fn midi_to_hz(m: f32) -> f32 {
    440.0 * math::powf(2.0, (m - 69.0) / 12.0)
}

/// Per-sample multiplier giving an exponential decay with time constant `tau` seconds.
pub(super) fn decay_factor(tau: f32) -> f32 {
    math::exp(-1.0 / (tau * RATE_F))
}
