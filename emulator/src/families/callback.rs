//! The callback body of a task's phase, in its family's shape.

use serde_json::Value;
use tunesmith_protocol::TaskFamily;

use super::common::Links;
use super::{cover, lyrics, midi, music, recovery, video, vocal_separation, voice, wav};
use crate::core::task::Task;

pub fn body(task: &Task, phase: usize, links: Links<'_>) -> Value {
    match task.kind {
        TaskFamily::Music => music::callback(task, phase, links),
        TaskFamily::Cover => cover::callback(task, phase, links),
        TaskFamily::Wav => wav::callback(task, phase, links),
        TaskFamily::Lyrics => lyrics::callback(task, phase),
        TaskFamily::VocalSeparation => vocal_separation::callback(task, phase, links),
        TaskFamily::Video => video::callback(task, phase, links),
        TaskFamily::Midi => midi::callback(task, phase),
        TaskFamily::Recovery => recovery::callback(task, phase, links),
        TaskFamily::VoiceValidation => voice::validation_callback(task, phase),
        TaskFamily::Voice => voice::voice_callback(task, phase),
    }
}
