//! Music tasks: generation, extension, covers and extensions of uploads, add-instrumental and
//! add-vocals, sounds, replaced sections and mashups; their status query; the style boost and the
//! credit balance.

use tunesmith_protocol::wire::{
    AddInstrumentalRequest, AddVocalsRequest, BoostStyleRequest, ExtendRequest, GenerateRequest,
    GenerateSoundsRequest, MashupRequest, MusicRecord, ReplaceSectionRequest, StyleBoost,
    TaskCreated, TaskQuery, UploadCoverRequest, UploadExtendRequest,
};

super::client::operations! {
    /// Generates music: 2 tracks from a prompt (or lyrics, style and title in custom mode).
    generate(GenerateRequest) -> TaskCreated = Generate;
    /// Extends a generated track from `continue_at` seconds (custom parameters) or with the
    /// source's own.
    extend(ExtendRequest) -> TaskCreated = Extend;
    /// Covers an uploaded audio in a new style.
    upload_cover(UploadCoverRequest) -> TaskCreated = UploadCover;
    /// Extends an uploaded audio.
    upload_extend(UploadExtendRequest) -> TaskCreated = UploadExtend;
    /// Generates an accompaniment for an uploaded vocal stem or melody.
    add_instrumental(AddInstrumentalRequest) -> TaskCreated = AddInstrumental;
    /// Layers generated vocals over an uploaded instrumental.
    add_vocals(AddVocalsRequest) -> TaskCreated = AddVocals;
    /// Boosts a style description (answers at once).
    boost_style(BoostStyleRequest) -> StyleBoost = BoostStyle;
    /// Status and tracks of a music task.
    get_task(TaskQuery) -> MusicRecord = GetTask;
    /// Remaining credits of the key.
    get_credits() -> f64 = GetCredits;
    /// Generates a sound or a seamless loop, with a tempo and a key (a music task).
    generate_sounds(GenerateSoundsRequest) -> TaskCreated = GenerateSounds;
    /// Regenerates a window of a track and keeps the rest (a music task).
    replace_section(ReplaceSectionRequest) -> TaskCreated = ReplaceSection;
    /// Mashes up two uploaded tracks into a new one (a music task).
    mashup(MashupRequest) -> TaskCreated = Mashup;
}
