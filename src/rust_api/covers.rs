//! Cover images of a music task (the cover family: its own envelope codes, 429 is a rate limit).

use super::client::Client;
use super::error::Error;
use tunesmith_protocol::wire::{CoverRecord, GenerateCoverRequest, TaskCreated, TaskQuery};
use tunesmith_protocol::Op;

impl Client {
    /// Generates cover images (normally 2) for a music task.
    pub async fn generate_cover(
        &self,
        request: &GenerateCoverRequest,
    ) -> Result<TaskCreated, Error> {
        self.call(Op::GenerateCover, request).await
    }

    /// Status and images of a cover task.
    pub async fn get_cover(&self, query: &TaskQuery) -> Result<CoverRecord, Error> {
        self.call(Op::GetCover, query).await
    }
}
