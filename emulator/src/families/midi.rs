//! MIDI of a vocal separation's stems: integer `successFlag` 0 pending → 1 success (2 creation
//! failed, 3 generation failed), epoch-millisecond times, and the notes each stem really plays.

use serde_json::{json, Value};
use tunesmith_protocol::status::{
    is_failure, CREATE_TASK_FAILED, MIDI_CREATE_FAILED, MIDI_FAILED, MIDI_PENDING, MIDI_SUCCESS,
    SUCCESS,
};
use tunesmith_protocol::wire::{
    Envelope, MidiCallbackData, MidiData, MidiInstrument, MidiNote, MidiRecord,
};

use super::common::text;
use super::vocal_separation::{group_name, stem_parts};
use crate::core::task::Task;
use crate::media;

fn flag(status: &str) -> i64 {
    match status {
        SUCCESS => MIDI_SUCCESS,
        CREATE_TASK_FAILED => MIDI_CREATE_FAILED,
        s if is_failure(s) => MIDI_FAILED,
        _ => MIDI_PENDING,
    }
}

/// Seconds rounded to the millisecond, as a note list is read.
fn ms(s: f64) -> f64 {
    (s * 1000.0).round() / 1000.0
}

/// The notes of every stem the task transcribes, from the track the separation split: the very
/// notes rendered into each stem's audio.
pub fn midi_data(task: &Task) -> MidiData {
    let (seed, seconds) = task
        .tracks
        .first()
        .map_or((0, 0.0), |t| (t.seed, t.seconds as f32));
    MidiData {
        state: "complete".into(),
        instruments: task
            .stems
            .iter()
            .map(|name| MidiInstrument {
                name: group_name(name),
                notes: media::part_notes(seed, seconds, stem_parts(name))
                    .into_iter()
                    .map(|n| MidiNote {
                        pitch: i64::from(n.pitch),
                        start: ms(n.start),
                        end: ms(n.end),
                        velocity: (f64::from(n.velocity) * 100.0).round() / 100.0,
                    })
                    .collect(),
            })
            .collect(),
    }
}

pub fn record(task: &Task, now: i64) -> MidiRecord {
    let outcome = task.outcome(now);
    let flag = flag(&outcome.status);
    MidiRecord {
        task_id: task.id.clone(),
        record_task_id: (task.seed % 10_000_000) as i64,
        audio_id: text(&task.param, "audioId").map(str::to_owned),
        callback_url: task.callback_url.clone().unwrap_or_default(),
        complete_time: task.is_done(now).then(|| task.done_ms()),
        midi_data: (flag == MIDI_SUCCESS).then(|| midi_data(task)),
        success_flag: flag,
        create_time: task.created_ms,
        error_code: outcome.error_code.map(|c| c.to_string()),
        error_message: outcome.error_message,
    }
}

pub fn callback(task: &Task, phase: usize) -> Value {
    let (code, msg) = task.callback_status(&task.phases[phase], "MIDI generation completed");
    json!(Envelope {
        code,
        msg,
        data: MidiCallbackData {
            task_id: task.id.clone(),
            midi_data: (code == 200).then(|| midi_data(task)),
        },
    })
}
