//! The format every generated track shares: sample rate, input limits and the peak level.

/// Rate of every generated track; low enough to keep files small, high enough to sound clean.
pub const RATE: u32 = 22_050;
pub(super) const RATE_F: f32 = RATE as f32;
/// A mixed-in source is cut here so an uploaded hour-long file cannot stall the server.
pub(super) const MAX_SOURCE_SECONDS: f32 = 120.0;
/// Upper bound for synthesized tracks (ten minutes, above any length the service offers),
/// so a bogus request cannot allocate gigabytes.
pub(super) const MAX_SYNTH_SECONDS: f32 = 600.0;
/// Conversion and stems accept at most this much input, for the same reason.
pub(super) const MAX_PROCESS_SECONDS: f64 = 1200.0;
/// Peak level after normalization: -1 dBFS leaves headroom for lossy re-encoders.
pub(super) const PEAK: f32 = 0.891;
