//! Lyrics: written from a prompt, and aligned word by word to a generated track.

use super::client::Client;
use super::error::Error;
use tunesmith_protocol::wire::{
    GenerateLyricsRequest, LyricsRecord, TaskCreated, TaskQuery, TimestampedLyrics,
    TimestampedLyricsRequest,
};
use tunesmith_protocol::Op;

impl Client {
    /// Writes lyrics from a prompt.
    pub async fn generate_lyrics(
        &self,
        request: &GenerateLyricsRequest,
    ) -> Result<TaskCreated, Error> {
        self.call(Op::GenerateLyrics, request).await
    }

    /// Status and texts of a lyrics task.
    pub async fn get_lyrics(&self, query: &TaskQuery) -> Result<LyricsRecord, Error> {
        self.call(Op::GetLyrics, query).await
    }

    /// Lyrics aligned to the audio, word by word (answers at once).
    pub async fn get_timestamped_lyrics(
        &self,
        request: &TimestampedLyricsRequest,
    ) -> Result<TimestampedLyrics, Error> {
        self.call(Op::GetTimestampedLyrics, request).await
    }
}
