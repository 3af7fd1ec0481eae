//! Vocal separation of a track: string `successFlag` PENDING → SUCCESS; WAV stems
//! (`separate_vocal`: vocal and instrumental; `split_stem`: twelve stems; `split_stem_advanced`:
//! the one instrument named by `stemName`), each rendered from the notes its parts play.

use serde_json::{json, Value};
use tunesmith_protocol::schema::STEM_NAME;
use tunesmith_protocol::status::SUCCESS;
use tunesmith_protocol::wire::{
    Envelope, OriginStem, Stems, StemsSnake, VocalCallbackData, VocalRecord,
};

use super::common::{complete_time, iso, text, Links};
use crate::core::store::fnv;
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

/// The stems a separation task yields (an advanced one: its `stemName`, as the service spells it).
pub fn stem_names(task: &Task) -> &'static [&'static str] {
    match text(&task.param, "type") {
        Some("split_stem") => SPLIT,
        Some("split_stem_advanced") => {
            let name = text(&task.param, "stemName").unwrap_or_default();
            match STEM_NAME.values.iter().position(|v| *v == name) {
                Some(i) => &STEM_NAME.values[i..=i],
                None => &[],
            }
        }
        _ => SEPARATE,
    }
}

/// Words of an advanced stem's name that tell which part of the track it is.
const ADVANCED_PARTS: &[(&[&str], &[Part])] = &[
    (&["Vocal", "Voice", "Choir"], &[Part::Melody, Part::Source]),
    (&["Bass", "808"], &[Part::Bass]),
    (&["Drum Kit", "Kick", "Snare"], &[Part::Drums]),
    (
        &[
            "Hi-Hat",
            "Cymbals",
            "Percussion",
            "Shaker",
            "Tambourine",
            "Hand Clap",
        ],
        &[Part::Percussion],
    ),
    (
        &[
            "Piano",
            "Keys",
            "Keyboards",
            "Rhodes",
            "Arpeggiator",
            "Organ",
            "Harpsichord",
        ],
        &[Part::Arpeggio],
    ),
    (&["String", "Pad"], &[Part::Chords]),
];

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
        advanced => ADVANCED_PARTS
            .iter()
            .find(|(words, _)| words.iter().any(|w| advanced.contains(w)))
            .map_or(&[], |(_, parts)| *parts),
    }
}

/// The stem's name in `originData` and in MIDI (`Vocals`, `Drums`, or an advanced `stemName`).
pub fn group_name(name: &str) -> String {
    match name {
        "vocal" => "Vocals".into(),
        "backing_vocals" => "Backing Vocals".into(),
        "fx" => "FX".into(),
        simple if simple.chars().all(|c| c.is_ascii_lowercase()) => {
            let mut c = simple.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        }
        advanced => advanced.to_owned(),
    }
}

/// The id of a stem of a separation: stable, UUID-shaped, as `originData` lists it.
pub fn stem_id(task: &Task, name: &str) -> String {
    let a = fnv(&[task.id.as_bytes(), name.as_bytes()]);
    let b = fnv(&[name.as_bytes(), task.id.as_bytes()]);
    let h = format!("{a:016x}{b:016x}");
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

/// The stems `originData` lists: those with something in them (the service lists the stems it
/// found), or the one stem an advanced separation asked for.
pub fn listed_stems(task: &Task) -> Vec<&'static str> {
    let names = stem_names(task);
    if names.len() == 1 {
        return names.to_vec();
    }
    names
        .iter()
        .copied()
        .filter(|n| !stem_parts(n).is_empty())
        .collect()
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
    let seconds = task.tracks.first().map_or(0.0, |t| t.seconds);
    s.origin_data = Some(
        listed_stems(task)
            .into_iter()
            .map(|name| OriginStem {
                id: stem_id(task, name),
                audio_url: links.file(&task.id, &stem_file(name)),
                duration: seconds,
                stem_type_group_name: group_name(name),
            })
            .collect(),
    );
    for name in stem_names(task) {
        let url = Some(links.file(&task.id, &stem_file(name)));
        let slot = match *name {
            advanced if !advanced.chars().all(|c| c.is_ascii_lowercase() || c == '_') => {
                advanced_slot(advanced)
            }
            simple => simple,
        };
        match slot {
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
            "woodwinds" => s.woodwinds_url = url,
            _ => s.fx_url = url,
        }
    }
    s
}

/// Which URL field of the record an advanced stem fills: its part's, else its family's.
fn advanced_slot(name: &str) -> &'static str {
    let has = |words: &[&str]| words.iter().any(|w| name.contains(w));
    match stem_parts(name).first() {
        Some(Part::Melody) => "vocal",
        Some(Part::Bass) => "bass",
        Some(Part::Drums) => "drums",
        Some(Part::Percussion) => "percussion",
        Some(Part::Arpeggio) => "keyboard",
        Some(Part::Chords) => "strings",
        _ if has(&[
            "Guitar", "Banjo", "Mandolin", "Ukulele", "Sitar", "Koto", "Harp",
        ]) =>
        {
            "guitar"
        }
        _ if has(&["Trumpet", "Trombone", "Horn", "Tuba", "Brass", "Saxophone"]) => "brass",
        _ if has(&[
            "Flute", "Clarinet", "Oboe", "Bassoon", "Piccolo", "Woodwind", "Whistle",
        ]) =>
        {
            "woodwinds"
        }
        _ if has(&["Synth", "Theremin"]) => "synth",
        _ => "fx",
    }
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
