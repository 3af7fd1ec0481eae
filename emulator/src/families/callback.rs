//! The callback body of a task's phase, in its family's shape.

use serde_json::Value;
use tunesmith_protocol::waiter::TaskKind;

use super::common::Links;
use super::{cover, lyrics, midi, music, recovery, video, vocal_separation, voice, wav};
use crate::core::task::Task;

pub fn body(task: &Task, phase: usize, links: Links<'_>) -> Value {
    match task.kind {
        TaskKind::Music => music::callback(task, phase, links),
        TaskKind::Cover => cover::callback(task, phase, links),
        TaskKind::Wav => wav::callback(task, phase, links),
        TaskKind::Lyrics => lyrics::callback(task, phase),
        TaskKind::VocalSeparation => vocal_separation::callback(task, phase, links),
        TaskKind::Video => video::callback(task, phase, links),
        TaskKind::Midi => midi::callback(task, phase),
        TaskKind::Recovery => recovery::callback(task, phase, links),
        TaskKind::VoiceValidation => voice::validation_callback(task, phase),
        TaskKind::Voice => voice::voice_callback(task, phase),
    }
}
