//! Media for the emulator: deterministic, real and playable WAV tracks, 44.1 kHz conversion,
//! note-based stems and their MIDI, sounds at a tempo and key, mashups, spliced sections, PNG
//! covers, and music videos (MP4 of H.264 and FLAC, from hand-built encoders).
//!
//! Everything here is pure (bytes in, bytes out), depends only on its arguments, and never
//! panics: undecodable input yields an empty `Vec` or `None`.

mod bits;
mod composition;
mod cover;
mod flac;
mod format;
mod h264;
mod math;
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
#[cfg(test)]
mod video_tests;

pub use cover::cover_png;
pub use format::RATE as SAMPLE_RATE;
pub use mix::{mix, replace_window};
pub use mp4::music_video;
pub use sounds::{beat_samples, parse_key, sound_tempo, sound_wav};
pub use stems::{part_notes, part_track, synth_track, MidiNote, Part};
pub use wav::{to_wav_44k, wav_duration};
