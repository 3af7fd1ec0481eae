//! The operations added with the public document's wider list: sounds, replace-section and
//! mashup (music tasks), personas, MIDI, audio recovery and custom voices.

use super::client::Client;
use super::error::Error;
use tunesmith_protocol::wire::{
    CheckVoiceRequest, CreateVoiceRequest, GenerateMidiRequest, GeneratePersonaRequest,
    GenerateSoundsRequest, MashupRequest, MidiRecord, PersonaRecord, RecoverAudioRequest,
    RecoveryEnvelope, RecoveryQuery, RegenerateVoicePhraseRequest, ReplaceSectionRequest,
    TaskCreated, TaskQuery, ValidateVoiceRequest, VoiceAvailability, VoiceRecord,
    VoiceValidationRecord,
};
use tunesmith_protocol::Op;

impl Client {
    /// Generates a sound or a seamless loop, with a tempo and a key (a music task).
    pub async fn generate_sounds(
        &self,
        request: &GenerateSoundsRequest,
    ) -> Result<TaskCreated, Error> {
        self.call(Op::GenerateSounds, request).await
    }

    /// Regenerates a window of a track and keeps the rest (a music task).
    pub async fn replace_section(
        &self,
        request: &ReplaceSectionRequest,
    ) -> Result<TaskCreated, Error> {
        self.call(Op::ReplaceSection, request).await
    }

    /// Mashes up two uploaded tracks into a new one (a music task).
    pub async fn mashup(&self, request: &MashupRequest) -> Result<TaskCreated, Error> {
        self.call(Op::Mashup, request).await
    }

    /// Makes a persona from a generated track (answers at once).
    pub async fn generate_persona(
        &self,
        request: &GeneratePersonaRequest,
    ) -> Result<PersonaRecord, Error> {
        self.call(Op::GeneratePersona, request).await
    }

    /// Transcribes a finished vocal separation's stems to MIDI notes.
    pub async fn generate_midi(&self, request: &GenerateMidiRequest) -> Result<TaskCreated, Error> {
        self.call(Op::GenerateMidi, request).await
    }

    /// Status and notes of a MIDI task.
    pub async fn get_midi(&self, query: &TaskQuery) -> Result<MidiRecord, Error> {
        self.call(Op::GetMidi, query).await
    }

    /// Fresh playable links for an old music task whose links expired.
    pub async fn recover_audio(&self, request: &RecoverAudioRequest) -> Result<TaskCreated, Error> {
        self.call(Op::RecoverAudio, request).await
    }

    /// Status and links of an audio recovery: the whole answer, whose `code` tells the state
    /// (201 running, 200 done, 500 every track failed).
    pub async fn get_recovery(&self, query: &RecoveryQuery) -> Result<RecoveryEnvelope, Error> {
        self.call(Op::GetRecovery, query).await
    }

    /// Starts a custom voice: a phrase for the singer to record.
    pub async fn validate_voice(
        &self,
        request: &ValidateVoiceRequest,
    ) -> Result<TaskCreated, Error> {
        self.call(Op::ValidateVoice, request).await
    }

    /// Status and phrase of a voice validation.
    pub async fn get_voice_validation(
        &self,
        query: &TaskQuery,
    ) -> Result<VoiceValidationRecord, Error> {
        self.call(Op::GetVoiceValidation, query).await
    }

    /// A new phrase for a voice validation (a new validation task).
    pub async fn regenerate_voice_phrase(
        &self,
        request: &RegenerateVoicePhraseRequest,
    ) -> Result<TaskCreated, Error> {
        self.call(Op::RegenerateVoicePhrase, request).await
    }

    /// Creates the custom voice from the recorded phrase.
    pub async fn create_voice(&self, request: &CreateVoiceRequest) -> Result<TaskCreated, Error> {
        self.call(Op::CreateVoice, request).await
    }

    /// Status and id of a custom voice.
    pub async fn get_voice(&self, query: &TaskQuery) -> Result<VoiceRecord, Error> {
        self.call(Op::GetVoice, query).await
    }

    /// Whether a custom voice can be used (answers at once).
    pub async fn check_voice(
        &self,
        request: &CheckVoiceRequest,
    ) -> Result<VoiceAvailability, Error> {
        self.call(Op::CheckVoice, request).await
    }
}
