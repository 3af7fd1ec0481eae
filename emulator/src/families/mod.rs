//! The shapes of each family's records and callbacks: pure functions of a task and `now`.

pub mod callback;
pub mod common;
pub mod cover;
pub mod files;
pub mod lyrics;
pub mod midi;
pub mod music;
pub mod recovery;
pub mod references;
pub mod video;
pub mod vocal_separation;
pub mod voice;
pub mod wav;
