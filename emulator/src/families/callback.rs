//! The callback body of a task's phase, in its family's shape.

use serde_json::Value;
use tunesmith_protocol::waiter::TaskKind;

use super::common::Links;
use super::{cover, lyrics, music, video, vocal_separation, wav};
use crate::core::task::Task;

pub fn body(task: &Task, phase: usize, links: Links<'_>) -> Value {
    match task.kind {
        TaskKind::Music => music::callback(task, phase, links),
        TaskKind::Cover => cover::callback(task, phase, links),
        TaskKind::Wav => wav::callback(task, phase, links),
        TaskKind::Lyrics => lyrics::callback(task, phase),
        TaskKind::VocalSeparation => vocal_separation::callback(task, phase, links),
        TaskKind::Video => video::callback(task, phase, links),
        // Not created by any route of the emulator yet (the families of issue 12 land next).
        TaskKind::Midi | TaskKind::Recovery | TaskKind::VoiceValidation | TaskKind::Voice => {
            Value::Null
        }
    }
}
