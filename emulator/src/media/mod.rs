//! Media for the emulator: deterministic, real and playable WAV tracks, 44.1 kHz conversion,
//! stems, PNG covers and a minimal MP4 container.
//!
//! Everything here is pure (bytes in, bytes out), depends only on its arguments, and never
//! panics: undecodable input yields an empty `Vec` or `None`.

mod composition;
mod cover;
mod format;
mod mp4;
mod oscillators;
mod render;
mod rng;
mod wav;

#[cfg(test)]
mod tests;

pub use cover::cover_png;
pub use mp4::tiny_mp4;
pub use wav::{stems, synth_track, to_wav_44k, wav_duration};
