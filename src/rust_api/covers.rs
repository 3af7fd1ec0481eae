//! Cover images of a music task (their own table of envelope codes: 429 is a rate limit there).

use tunesmith_protocol::wire::{CoverRecord, GenerateCoverRequest, TaskCreated, TaskQuery};

super::client::operations! {
    /// Generates cover images (normally 2) for a music task.
    generate_cover(GenerateCoverRequest) -> TaskCreated = GenerateCover;
    /// Status and images of a cover task.
    get_cover(TaskQuery) -> CoverRecord = GetCover;
}
