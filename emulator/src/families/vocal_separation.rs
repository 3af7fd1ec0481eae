//! Vocal separation of a track: string `successFlag` PENDING → SUCCESS; WAV stems
//! (`separate_vocal`: vocal and instrumental; `split_stem`: twelve stems).

use serde_json::{json, Value};
use tunesmith_protocol::status::SUCCESS;
use tunesmith_protocol::wire::{Envelope, Stems, StemsSnake, VocalCallbackData, VocalRecord};

use super::common::{complete_time, iso, text, Links};
use crate::core::task::{Outcome, Task};
use crate::media::Part;

pub const SEPARATE: &[&str] = &["vocal", "instrumental"];
pub const SPLIT: &[&str] = &[
    "vocal",
    "backing_vocals",
    "drums",
    "bass",
    "guitar",
    "keyboard",
    "percussion",
    "strings",
    "synth",
    "fx",
    "brass",
    "woodwinds",
];

/// The stems a separation task yields.
pub fn stem_names(task: &Task) -> &'static [&'static str] {
    if text(&task.param, "type") == Some("split_stem") {
        SPLIT
    } else {
        SEPARATE
    }
}

/// The parts of the track a stem holds: the melody (and any uploaded audio) is the vocal, each
/// instrument its own; a stem for an instrument the track does not play is silent.
pub fn stem_parts(name: &str) -> &'static [Part] {
    match name {
        "vocal" => &[Part::Melody, Part::Source],
        "instrumental" => &[
            Part::Chords,
            Part::Arpeggio,
            Part::Bass,
            Part::Drums,
            Part::Percussion,
        ],
        "drums" => &[Part::Drums],
        "bass" => &[Part::Bass],
        "keyboard" => &[Part::Arpeggio],
        "percussion" => &[Part::Percussion],
        "strings" => &[Part::Chords],
        _ => &[],
    }
}

pub fn stem_file(name: &str) -> String {
    format!("stem-{name}.wav")
}

fn stems(task: &Task, links: Links<'_>) -> Stems {
    let mut s = Stems {
        origin_url: task
            .parent_task
            .as_ref()
            .zip(task.parent_audio.as_ref())
            .map(|(t, a)| links.file(t, &format!("{a}.wav"))),
        ..Stems::default()
    };
    for name in stem_names(task) {
        let url = Some(links.file(&task.id, &stem_file(name)));
        match *name {
            "vocal" => s.vocal_url = url,
            "instrumental" => s.instrumental_url = url,
            "backing_vocals" => s.backing_vocals_url = url,
            "drums" => s.drums_url = url,
            "bass" => s.bass_url = url,
            "guitar" => s.guitar_url = url,
            "keyboard" => s.keyboard_url = url,
            "percussion" => s.percussion_url = url,
            "strings" => s.strings_url = url,
            "synth" => s.synth_url = url,
            "fx" => s.fx_url = url,
            "brass" => s.brass_url = url,
            _ => s.woodwinds_url = url,
        }
    }
    s
}

pub fn record(task: &Task, now: i64, links: Links<'_>) -> VocalRecord {
    let Outcome {
        status,
        error_code,
        error_message,
    } = task.outcome(now);
    VocalRecord {
        task_id: task.id.clone(),
        music_id: task.parent_audio.clone().unwrap_or_default(),
        callback_url: task.callback_url.clone().unwrap_or_default(),
        music_index: task.music_index,
        complete_time: complete_time(task, now),
        response: (status == SUCCESS).then(|| stems(task, links)),
        success_flag: status,
        create_time: iso(task.created_ms),
        error_code,
        error_message,
    }
}

pub fn callback(task: &Task, phase: usize, links: Links<'_>) -> Value {
    let (code, msg) = task.callback_status(&task.phases[phase], "vocal separation completed");
    json!(Envelope {
        code,
        msg,
        data: VocalCallbackData {
            task_id: task.id.clone(),
            vocal_removal_info: (code == 200).then(|| StemsSnake::from(&stems(task, links))),
        },
    })
}
