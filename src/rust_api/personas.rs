//! Personas: a voice and style taken from a generated track, to sing new songs with.

use tunesmith_protocol::wire::{GeneratePersonaRequest, PersonaRecord};

super::client::operations! {
    /// Makes a persona from a generated track (answers at once).
    generate_persona(GeneratePersonaRequest) -> PersonaRecord = GeneratePersona;
}
