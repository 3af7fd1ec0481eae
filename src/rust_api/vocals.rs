//! Vocal separation: a track split into stems.

use super::client::Client;
use super::error::Error;
use tunesmith_protocol::wire::{SeparateVocalsRequest, TaskCreated, TaskQuery, VocalRecord};
use tunesmith_protocol::Op;

impl Client {
    /// Separates vocals and instruments of a track into stems.
    pub async fn separate_vocals(
        &self,
        request: &SeparateVocalsRequest,
    ) -> Result<TaskCreated, Error> {
        self.call(Op::SeparateVocals, request).await
    }

    /// Status and stems of a vocal separation.
    pub async fn get_vocal_separation(&self, query: &TaskQuery) -> Result<VocalRecord, Error> {
        self.call(Op::GetVocalSeparation, query).await
    }
}
