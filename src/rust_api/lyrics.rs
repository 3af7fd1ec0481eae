//! Lyrics: written from a prompt, and aligned word by word to a generated track.

use tunesmith_protocol::wire::{
    GenerateLyricsRequest, LyricsRecord, TaskCreated, TaskQuery, TimestampedLyrics,
    TimestampedLyricsRequest,
};

super::client::operations! {
    /// Writes lyrics from a prompt.
    generate_lyrics(GenerateLyricsRequest) -> TaskCreated = GenerateLyrics;
    /// Status and texts of a lyrics task.
    get_lyrics(TaskQuery) -> LyricsRecord = GetLyrics;
    /// Lyrics aligned to the audio, word by word (answers at once).
    get_timestamped_lyrics(TimestampedLyricsRequest) -> TimestampedLyrics = GetTimestampedLyrics;
}
