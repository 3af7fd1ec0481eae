//! Media for the emulator: deterministic, real and playable WAV tracks, 44.1 kHz conversion,
//! note-based stems and their MIDI, sounds at a tempo and key, mashups, spliced sections, PNG
//! covers and a minimal MP4 container.
//!
//! Everything here is pure (bytes in, bytes out), depends only on its arguments, and never
//! panics: undecodable input yields an empty `Vec` or `None`.

mod composition;
mod cover;
mod format;
mod mix;
mod mp4;
mod oscillators;
mod render;
mod rng;
mod sounds;
mod stems;
mod wav;

#[cfg(test)]
mod listening_tests;
#[cfg(test)]
mod tests;

pub use cover::cover_png;
pub use format::RATE as SAMPLE_RATE;
pub use mix::{mix, replace_window};
pub use mp4::tiny_mp4;
pub use sounds::{beat_samples, parse_key, sound_tempo, sound_wav};
pub use stems::{part_notes, part_track, synth_track, MidiNote, Part};
pub use wav::{to_wav_44k, wav_duration};
