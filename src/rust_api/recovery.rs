//! Audio recovery: fresh playable links for an older music task.

use tunesmith_protocol::wire::{RecoverAudioRequest, RecoveryEnvelope, RecoveryQuery, TaskCreated};

super::client::operations! {
    /// Fresh playable links for an old music task whose links expired.
    recover_audio(RecoverAudioRequest) -> TaskCreated = RecoverAudio;
    /// Status and links of an audio recovery: the whole answer, whose `code` tells the state
    /// (201 running, 200 done, 500 every track failed).
    get_recovery(RecoveryQuery) -> RecoveryEnvelope = GetRecovery;
}
