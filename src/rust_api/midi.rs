//! MIDI: the notes of a vocal separation's stems.

use tunesmith_protocol::wire::{GenerateMidiRequest, MidiRecord, TaskCreated, TaskQuery};

super::client::operations! {
    /// Transcribes a finished vocal separation's stems to MIDI notes.
    generate_midi(GenerateMidiRequest) -> TaskCreated = GenerateMidi;
    /// Status and notes of a MIDI task.
    get_midi(TaskQuery) -> MidiRecord = GetMidi;
}
