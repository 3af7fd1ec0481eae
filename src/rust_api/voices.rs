//! Custom voices: a phrase validated with the singer's recording, then the voice made from it.

use tunesmith_protocol::wire::{
    CheckVoiceRequest, CreateVoiceRequest, RegenerateVoicePhraseRequest, TaskCreated, TaskQuery,
    ValidateVoiceRequest, VoiceAvailability, VoiceRecord, VoiceValidationRecord,
};

super::client::operations! {
    /// Starts a custom voice: a phrase for the singer to record.
    validate_voice(ValidateVoiceRequest) -> TaskCreated = ValidateVoice;
    /// Status and phrase of a voice validation.
    get_voice_validation(TaskQuery) -> VoiceValidationRecord = GetVoiceValidation;
    /// A new phrase for a voice validation (a new validation task).
    regenerate_voice_phrase(RegenerateVoicePhraseRequest) -> TaskCreated = RegenerateVoicePhrase;
    /// Creates the custom voice from the recorded phrase.
    create_voice(CreateVoiceRequest) -> TaskCreated = CreateVoice;
    /// Status and id of a custom voice.
    get_voice(TaskQuery) -> VoiceRecord = GetVoice;
    /// Whether a custom voice can be used (answers at once).
    check_voice(CheckVoiceRequest) -> VoiceAvailability = CheckVoice;
}
