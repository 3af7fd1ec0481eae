//! Music tasks: generation, extension, covers and extensions of uploads, add-instrumental and
//! add-vocals; their status query; the style boost and the credit balance.

use super::client::Client;
use super::error::Error;
use tunesmith_protocol::wire::{
    AddInstrumentalRequest, AddVocalsRequest, BoostStyleRequest, ExtendRequest, GenerateRequest,
    MusicRecord, StyleBoost, TaskCreated, TaskQuery, UploadCoverRequest, UploadExtendRequest,
};
use tunesmith_protocol::Op;

impl Client {
    /// Generates music: 2 tracks from a prompt (or lyrics, style and title in custom mode).
    pub async fn generate(&self, request: &GenerateRequest) -> Result<TaskCreated, Error> {
        self.call(Op::Generate, request).await
    }

    /// Extends a generated track from `continue_at` seconds (custom parameters) or with the
    /// source's own.
    pub async fn extend(&self, request: &ExtendRequest) -> Result<TaskCreated, Error> {
        self.call(Op::Extend, request).await
    }

    /// Covers an uploaded audio in a new style.
    pub async fn upload_cover(&self, request: &UploadCoverRequest) -> Result<TaskCreated, Error> {
        self.call(Op::UploadCover, request).await
    }

    /// Extends an uploaded audio.
    pub async fn upload_extend(&self, request: &UploadExtendRequest) -> Result<TaskCreated, Error> {
        self.call(Op::UploadExtend, request).await
    }

    /// Generates an accompaniment for an uploaded vocal stem or melody.
    pub async fn add_instrumental(
        &self,
        request: &AddInstrumentalRequest,
    ) -> Result<TaskCreated, Error> {
        self.call(Op::AddInstrumental, request).await
    }

    /// Layers generated vocals over an uploaded instrumental.
    pub async fn add_vocals(&self, request: &AddVocalsRequest) -> Result<TaskCreated, Error> {
        self.call(Op::AddVocals, request).await
    }

    /// Boosts a style description (answers at once).
    pub async fn boost_style(&self, request: &BoostStyleRequest) -> Result<StyleBoost, Error> {
        self.call(Op::BoostStyle, request).await
    }

    /// Status and tracks of a music task.
    pub async fn get_task(&self, query: &TaskQuery) -> Result<MusicRecord, Error> {
        self.call(Op::GetTask, query).await
    }

    /// Remaining credits of the key.
    pub async fn get_credits(&self) -> Result<f64, Error> {
        self.call(Op::GetCredits, &()).await
    }
}
