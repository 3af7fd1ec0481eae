//! WAV conversions of generated tracks.

use super::client::Client;
use super::error::Error;
use tunesmith_protocol::wire::{ConvertToWavRequest, TaskCreated, TaskQuery, WavRecord};
use tunesmith_protocol::Op;

impl Client {
    /// Converts a track to WAV (give `task_id` or `audio_id`).
    pub async fn convert_to_wav(
        &self,
        request: &ConvertToWavRequest,
    ) -> Result<TaskCreated, Error> {
        self.call(Op::ConvertToWav, request).await
    }

    /// Status and URL of a WAV conversion.
    pub async fn get_wav(&self, query: &TaskQuery) -> Result<WavRecord, Error> {
        self.call(Op::GetWav, query).await
    }
}
