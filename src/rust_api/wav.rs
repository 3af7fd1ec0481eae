//! WAV conversions of generated tracks.

use tunesmith_protocol::wire::{ConvertToWavRequest, TaskCreated, TaskQuery, WavRecord};

super::client::operations! {
    /// Converts a track to WAV (give `task_id` or `audio_id`).
    convert_to_wav(ConvertToWavRequest) -> TaskCreated = ConvertToWav;
    /// Status and URL of a WAV conversion.
    get_wav(TaskQuery) -> WavRecord = GetWav;
}
