//! Music videos of generated tracks.

use super::client::Client;
use super::error::Error;
use tunesmith_protocol::wire::{GenerateVideoRequest, TaskCreated, TaskQuery, VideoRecord};
use tunesmith_protocol::Op;

impl Client {
    /// Makes a music video of a track.
    pub async fn generate_video(
        &self,
        request: &GenerateVideoRequest,
    ) -> Result<TaskCreated, Error> {
        self.call(Op::GenerateVideo, request).await
    }

    /// Status and URL of a music video.
    pub async fn get_video(&self, query: &TaskQuery) -> Result<VideoRecord, Error> {
        self.call(Op::GetVideo, query).await
    }
}
