//! Custom voices: the validation task (a phrase in the singer's language: `wait_processing` →
//! `processing_validate` → `wait_validating`, or `processing_validate_fail`) and the voice task
//! (`wait_processing` → `processing_validate` → `success` with a `voiceId`, or `fail`).

use serde_json::{json, Value};
use tunesmith_protocol::status::{
    VOICE_FAIL, VOICE_PHRASE_READY, VOICE_SUCCESS, VOICE_VALIDATE_FAIL, VOICE_WAIT_PROCESSING,
};
use tunesmith_protocol::wire::{Envelope, VoiceCallbackData, VoiceRecord, VoiceValidationRecord};

use super::common::text;
use crate::core::store::fnv;
use crate::core::task::Task;

/// Words of each phrase language (the documented `language` values); English by default.
fn words(language: &str) -> &'static [&'static str] {
    match language {
        "zh" => &[
            "月光", "河流", "微风", "星星", "花园", "歌声", "远方", "清晨",
        ],
        "es" => &[
            "luna", "río", "viento", "estrella", "jardín", "canción", "mañana", "cielo",
        ],
        "fr" => &[
            "lune", "rivière", "vent", "étoile", "jardin", "chanson", "matin", "ciel",
        ],
        "pt" => &[
            "lua", "rio", "vento", "estrela", "jardim", "canção", "manhã", "céu",
        ],
        "de" => &[
            "Mond", "Fluss", "Wind", "Stern", "Garten", "Lied", "Morgen", "Himmel",
        ],
        "ja" => &[
            "つき", "かわ", "かぜ", "ほし", "にわ", "うた", "あさ", "そら",
        ],
        "ko" => &[
            "달빛", "강물", "바람", "별빛", "정원", "노래", "아침", "하늘",
        ],
        "hi" => &["चाँद", "नदी", "हवा", "तारा", "बाग़", "गीत", "सुबह", "आसमान"],
        "ru" => &[
            "луна",
            "река",
            "ветер",
            "звезда",
            "сад",
            "песня",
            "утро",
            "небо",
        ],
        _ => &[
            "moon", "river", "wind", "star", "garden", "song", "morning", "sky",
        ],
    }
}

/// The phrase language of a validation task.
pub fn language(task: &Task) -> &str {
    text(&task.param, "language").unwrap_or("en")
}

/// The phrase a seed gives in `language`: six words of its list, deterministic.
pub fn phrase(seed: u64, language: &str) -> String {
    let list = words(language);
    let sep = if matches!(language, "zh" | "ja") {
        ""
    } else {
        " "
    };
    (0..6u64)
        .map(|i| list[(fnv(&[&seed.to_le_bytes(), &i.to_le_bytes()]) % list.len() as u64) as usize])
        .collect::<Vec<_>>()
        .join(sep)
}

/// The id of the voice a voice task makes.
pub fn voice_id(task: &Task) -> String {
    format!("voice_{:016x}", fnv(&[b"voice", task.id.as_bytes()]))
}

fn is_fail(status: &str) -> bool {
    status == VOICE_VALIDATE_FAIL || status == VOICE_FAIL
}

/// Status (lower case, `wait_processing` before the first stage), error code and message.
fn outcome(task: &Task, now: i64) -> (String, Option<i64>, Option<String>) {
    if task.reached(now) == 0 {
        return (VOICE_WAIT_PROCESSING.to_owned(), None, None);
    }
    let status = task.status(now).to_owned();
    if is_fail(&status) {
        let f = task.failure_of(&status);
        (status, Some(f.code), Some(f.message))
    } else {
        (status, None, None)
    }
}

pub fn validation_record(task: &Task, now: i64) -> VoiceValidationRecord {
    let (status, error_code, error_message) = outcome(task, now);
    VoiceValidationRecord {
        task_id: task.id.clone(),
        validate_info: (status == VOICE_PHRASE_READY).then(|| phrase(task.seed, language(task))),
        status,
        error_code,
        error_message,
    }
}

pub fn voice_record(task: &Task, now: i64) -> VoiceRecord {
    let (status, error_code, error_message) = outcome(task, now);
    VoiceRecord {
        task_id: task.id.clone(),
        voice_id: (status == VOICE_SUCCESS).then(|| voice_id(task)),
        status,
        error_code,
        error_message,
    }
}

/// Whether the validation's phrase is ready for the singer (what createVoice needs).
pub fn phrase_ready(task: &Task, now: i64) -> bool {
    task.is_done(now) && task.status(now) == VOICE_PHRASE_READY
}

/// Whether the voice can sing.
pub fn available(task: &Task, now: i64) -> bool {
    task.is_done(now) && task.status(now) == VOICE_SUCCESS
}

fn code_msg(task: &Task, label: &str) -> (i64, String) {
    if is_fail(label) {
        let f = task.failure_of(label);
        (f.code, f.message)
    } else {
        (tunesmith_protocol::codes::OK, "success".to_owned())
    }
}

/// A validation callback names its phrase (`validateInfo`), never a voice.
pub fn validation_callback(task: &Task, phase: usize) -> Value {
    let label = &task.phases[phase];
    let (code, msg) = code_msg(task, label);
    json!(Envelope {
        code,
        msg,
        data: VoiceCallbackData {
            task_id: task.id.clone(),
            validate_info: Some(
                (label == VOICE_PHRASE_READY).then(|| phrase(task.seed, language(task)))
            ),
            voice_id: None,
            status: label.clone(),
        },
    })
}

/// A voice callback names its voice (`voiceId`), never a phrase.
pub fn voice_callback(task: &Task, phase: usize) -> Value {
    let label = &task.phases[phase];
    let (code, msg) = code_msg(task, label);
    json!(Envelope {
        code,
        msg,
        data: VoiceCallbackData {
            task_id: task.id.clone(),
            validate_info: None,
            voice_id: Some((label == VOICE_SUCCESS).then(|| voice_id(task))),
            status: label.clone(),
        },
    })
}
