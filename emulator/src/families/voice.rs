//! Custom voices: a validation (the phrase the singer must record) and the voice made from the
//! recording, both with lower-case statuses; and whether a voice can be used.

use serde_json::{json, Value};
use tunesmith_protocol::status::{
    is_failure, VOICE_FAIL, VOICE_PHRASE_READY, VOICE_PROCESSING, VOICE_SUCCESS,
    VOICE_VALIDATE_FAIL, VOICE_WAIT_PROCESSING,
};
use tunesmith_protocol::waiter::TaskKind;
use tunesmith_protocol::wire::{Envelope, VoiceCallbackData, VoiceRecord, VoiceValidationRecord};

use crate::core::store::fnv;
use crate::core::task::{Outcome, Task};

/// Phrases to sing, by language: short, singable, different from each other.
const PHRASES: &[(&str, &[&str])] = &[
    (
        "en",
        &[
            "The morning light is dancing on the water",
            "Every road I walk leads me back to you",
            "Sing it softly, let the evening carry it home",
        ],
    ),
    (
        "zh",
        &[
            "晨光在水面上跳舞",
            "每一条路都带我回到你身边",
            "轻轻地唱，让夜晚带它回家",
        ],
    ),
    (
        "es",
        &[
            "La luz de la mañana baila sobre el agua",
            "Cada camino me devuelve a ti",
            "Cántalo suave, que la noche lo lleve",
        ],
    ),
    (
        "fr",
        &[
            "La lumière du matin danse sur l'eau",
            "Chaque route me ramène vers toi",
            "Chante-le doucement, le soir l'emportera",
        ],
    ),
    (
        "pt",
        &[
            "A luz da manhã dança sobre a água",
            "Cada estrada me traz de volta a você",
            "Canta baixinho, que a noite leva",
        ],
    ),
    (
        "de",
        &[
            "Das Morgenlicht tanzt auf dem Wasser",
            "Jeder Weg führt mich zurück zu dir",
            "Sing es leise, der Abend trägt es heim",
        ],
    ),
    (
        "ja",
        &[
            "朝の光が水の上で踊る",
            "どの道もあなたへ帰る",
            "そっと歌って、夜が運んでくれる",
        ],
    ),
    (
        "ko",
        &[
            "아침 햇살이 물 위에서 춤춰요",
            "모든 길이 너에게로 이어져",
            "살며시 불러요, 밤이 데려가요",
        ],
    ),
    (
        "hi",
        &[
            "सुबह की रोशनी पानी पर नाचती है",
            "हर राह मुझे तुम तक लाती है",
            "धीरे से गाओ, शाम इसे घर ले जाएगी",
        ],
    ),
    (
        "ru",
        &[
            "Утренний свет танцует на воде",
            "Каждая дорога ведёт меня к тебе",
            "Спой это тихо, вечер унесёт домой",
        ],
    ),
];

/// The phrase for `language` (English when absent or unknown) picked by `seed`, never `avoid`
/// (the phrase a regeneration replaces).
pub fn phrase(language: Option<&str>, seed: u64, avoid: Option<&str>) -> String {
    let list = PHRASES
        .iter()
        .find(|(l, _)| Some(*l) == language)
        .or(PHRASES.first())
        .map_or(&[][..], |(_, p)| *p);
    let n = list.len().max(1);
    let mut i = (seed % n as u64) as usize;
    if list.get(i).is_some_and(|p| Some(*p) == avoid) {
        i = (i + 1) % n;
    }
    list.get(i).map_or_else(String::new, |p| (*p).to_owned())
}

/// The id a created voice is used by (`personaId` with `personaModel: "voice_persona"`).
pub fn voice_id(task: &Task) -> String {
    format!("voice_{:016x}", fnv(&[b"voice", task.id.as_bytes()]))
}

fn status(task: &Task, word: &str) -> &'static str {
    let validation = task.kind == TaskKind::VoiceValidation;
    match word {
        w if is_failure(w) && validation => VOICE_VALIDATE_FAIL,
        w if is_failure(w) => VOICE_FAIL,
        tunesmith_protocol::status::SUCCESS if validation => VOICE_PHRASE_READY,
        tunesmith_protocol::status::SUCCESS => VOICE_SUCCESS,
        _ if validation => VOICE_WAIT_PROCESSING,
        _ => VOICE_PROCESSING,
    }
}

pub fn validation_record(task: &Task, now: i64) -> VoiceValidationRecord {
    let Outcome {
        status: word,
        error_code,
        error_message,
    } = task.outcome(now);
    let status = status(task, &word);
    VoiceValidationRecord {
        task_id: task.id.clone(),
        validate_info: (status == VOICE_PHRASE_READY)
            .then(|| task.phrase.clone().unwrap_or_default()),
        status: status.into(),
        error_code,
        error_message,
    }
}

pub fn voice_record(task: &Task, now: i64) -> VoiceRecord {
    let Outcome {
        status: word,
        error_code,
        error_message,
    } = task.outcome(now);
    let status = status(task, &word);
    VoiceRecord {
        task_id: task.id.clone(),
        voice_id: (status == VOICE_SUCCESS).then(|| voice_id(task)),
        status: status.into(),
        error_code,
        error_message,
    }
}

/// Whether `task` is a voice that has been created by `now`.
pub fn is_available(task: &Task, now: i64) -> bool {
    task.kind == TaskKind::Voice && task.status(now) == tunesmith_protocol::status::SUCCESS
}

/// The callback of either kind: the record as its status query gives it (a validation names its
/// phrase, a voice its voiceId; each key present, null on failure, so the two stay apart).
pub fn callback(task: &Task, phase: usize) -> Value {
    let word = &task.phases[phase];
    let (code, msg) = task.callback_status(word, "success");
    let ok = code == 200;
    let (validate_info, voice_id) = if task.kind == TaskKind::VoiceValidation {
        (
            Some(ok.then(|| task.phrase.clone().unwrap_or_default())),
            None,
        )
    } else {
        (None, Some(ok.then(|| voice_id(task))))
    };
    json!(Envelope {
        code,
        msg,
        data: VoiceCallbackData {
            task_id: task.id.clone(),
            validate_info,
            voice_id,
            status: status(task, word).into(),
        },
    })
}
