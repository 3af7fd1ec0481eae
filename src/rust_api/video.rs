//! Music videos of generated tracks.

use tunesmith_protocol::wire::{GenerateVideoRequest, TaskCreated, TaskQuery, VideoRecord};

super::client::operations! {
    /// Makes a music video of a track.
    generate_video(GenerateVideoRequest) -> TaskCreated = GenerateVideo;
    /// Status and URL of a music video.
    get_video(TaskQuery) -> VideoRecord = GetVideo;
}
