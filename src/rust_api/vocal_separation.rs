//! Vocal separation: a track split into stems.

use tunesmith_protocol::wire::{SeparateVocalsRequest, TaskCreated, TaskQuery, VocalRecord};

super::client::operations! {
    /// Separates vocals and instruments of a track into stems.
    separate_vocals(SeparateVocalsRequest) -> TaskCreated = SeparateVocals;
    /// Status and stems of a vocal separation.
    get_vocal_separation(TaskQuery) -> VocalRecord = GetVocalSeparation;
}
