//! Callbacks, sans I/O: which family, task and stage a callback body speaks of, and the
//! bounded memory that lets a receiver handle each stage of a task once.
//!
//! The service may call the same URL several times per task (once per stage, and again when a
//! delivery was not acknowledged in time), so a receiver keys its work on family, task and stage.

use crate::family::TaskFamily;
use crate::rules::{Fields, RuleKind, ValidationError, Value};
use crate::state::{Stage, TaskState};

/// What a callback body says, once classified; the client adds the family's payload beside it.
#[derive(Clone, Debug, PartialEq)]
pub struct Callback {
    pub family: TaskFamily,
    pub task_id: String,
    /// `text`, `first`, `complete` or `error`; single-shot families use `complete` or `error`.
    pub stage: Stage,
    pub state: TaskState,
    pub code: i64,
}

impl Callback {
    /// The idempotency key of this event: one per family, task and stage.
    pub fn key(&self) -> String {
        dedup_key(self.family, &self.task_id, self.stage)
    }
}

pub fn dedup_key(family: TaskFamily, task_id: &str, stage: Stage) -> String {
    crate::text!(family.as_str(), ":", task_id, ":", stage.as_str())
}

/// Payload keys that identify the single-shot families, in both casings (the public docs mix them).
const VOCAL_KEYS: [&str; 2] = ["vocal_removal_info", "vocalRemovalInfo"];
const VIDEO_KEYS: [&str; 2] = ["video_url", "videoUrl"];
const WAV_KEYS: [&str; 2] = ["audioWavUrl", "audio_wav_url"];
const COVER_KEYS: [&str; 1] = ["images"];
const MIDI_KEYS: [&str; 2] = ["midiData", "midi_data"];
const RECOVERY_KEYS: [&str; 2] = ["recovery_data", "recoveryData"];
/// A voice callback names its voice; a validation callback its phrase (checked in this order).
const VOICE_KEYS: [&str; 2] = ["voiceId", "voice_id"];
const VOICE_VALIDATION_KEYS: [&str; 2] = ["validateInfo", "validate_info"];
/// Fields that only a generated track has (a lyrics item has `text` instead).
const TRACK_KEYS: [&str; 4] = [
    "audio_url",
    "stream_audio_url",
    "audioUrl",
    "streamAudioUrl",
];

/// The single-shot families, in the order a body is tested for their payloads (a voice before its
/// validation).
const SINGLE_SHOT: [TaskFamily; 8] = [
    TaskFamily::VocalSeparation,
    TaskFamily::Video,
    TaskFamily::Wav,
    TaskFamily::Cover,
    TaskFamily::Midi,
    TaskFamily::Recovery,
    TaskFamily::Voice,
    TaskFamily::VoiceValidation,
];

/// The keys under `data` that hold a single-shot family's payload, in either casing (the first
/// present wins); none for music and lyrics, whose results are the `data.data` list.
pub const fn payload_keys(family: TaskFamily) -> &'static [&'static str] {
    match family {
        TaskFamily::VocalSeparation => &VOCAL_KEYS,
        TaskFamily::Video => &VIDEO_KEYS,
        TaskFamily::Wav => &WAV_KEYS,
        TaskFamily::Cover => &COVER_KEYS,
        TaskFamily::Midi => &MIDI_KEYS,
        TaskFamily::Recovery => &RECOVERY_KEYS,
        TaskFamily::Voice => &VOICE_KEYS,
        TaskFamily::VoiceValidation => &VOICE_VALIDATION_KEYS,
        TaskFamily::Music | TaskFamily::Lyrics => &[],
    }
}

/// The first of `keys` present in `obj` (null counts as present), with its value.
fn first_present<'a>(
    obj: &'a dyn Fields,
    keys: &[&'static str],
) -> Option<(&'static str, Value<'a>)> {
    keys.iter()
        .map(|k| (*k, obj.field(k)))
        .find(|(_, v)| !matches!(v, Value::Missing))
}

fn text(obj: &dyn Fields, keys: &[&'static str]) -> Option<String> {
    keys.iter().find_map(|k| match obj.field(k) {
        Value::Str(s) if !s.trim().is_empty() => Some(s.into_owned()),
        _ => None,
    })
}

fn invalid(field: &str, rule: RuleKind, detail: &str) -> ValidationError {
    ValidationError::new(
        field,
        rule,
        crate::text!(detail, " (not a callback body of the service)"),
    )
}

/// Classifies a callback from its top-level `body`, its `data` object (`None` when `data` is not
/// an object) and, for bodies with a `data.data` array, that array's first item.
pub fn classify(
    body: &dyn Fields,
    data: Option<&dyn Fields>,
    first_item: Option<&dyn Fields>,
) -> Result<Callback, ValidationError> {
    let code = match body.field("code") {
        Value::Num(n) if n.fract() == 0.0 => n as i64,
        Value::Str(s) => crate::num::parse_int(s.trim())
            .ok_or_else(|| invalid("code", RuleKind::Integer, "must be an integer"))?,
        Value::Missing | Value::Null => {
            return Err(invalid("code", RuleKind::Required, "is missing"))
        }
        _ => return Err(invalid("code", RuleKind::Integer, "must be an integer")),
    };
    let data = data.ok_or_else(|| invalid("data", RuleKind::Type, "must be an object"))?;
    let task_id = text(data, &["task_id", "taskId"])
        .ok_or_else(|| invalid("data.task_id", RuleKind::Required, "is missing"))?;
    let callback_type = text(data, &["callbackType", "callback_type"]);
    let ok = code == crate::codes::OK;

    // Single-shot families: one callback at the end, success when the code is 200 and the payload is there.
    for family in SINGLE_SHOT {
        if let Some((_, payload)) = first_present(data, payload_keys(family)) {
            let delivered = !matches!(payload, Value::Null);
            let stage = if ok && delivered && callback_type.as_deref() != Some("error") {
                Stage::Complete
            } else {
                Stage::Error
            };
            return Ok(Callback {
                family,
                task_id,
                stage,
                state: state_of(stage),
                code,
            });
        }
    }

    let Some(callback_type) = callback_type else {
        return Err(invalid(
            "data",
            RuleKind::Type,
            "has neither `callbackType` nor the payload of a cover, WAV, vocal separation, video, MIDI, recovery or voice callback",
        ));
    };
    let stage = Stage::from_callback_type(&callback_type).ok_or_else(|| {
        invalid(
            "data.callbackType",
            RuleKind::OneOf,
            "must be `text`, `first`, `complete` or `error`",
        )
    })?;
    let family = match first_item {
        Some(item) if first_present(item, &TRACK_KEYS).is_some() => TaskFamily::Music,
        Some(item) if !matches!(item.field("text"), Value::Missing) => TaskFamily::Lyrics,
        // Without items, the casing tells: generation callbacks write `task_id`, lyrics `taskId`.
        _ if matches!(stage, Stage::Text | Stage::First) => TaskFamily::Music,
        _ if text(data, &["task_id"]).is_some() => TaskFamily::Music,
        _ => TaskFamily::Lyrics,
    };
    // An error code wins over a stage that claims success: the task did not deliver.
    let stage = if ok { stage } else { Stage::Error };
    Ok(Callback {
        family,
        task_id,
        stage,
        state: state_of(stage),
        code,
    })
}

const fn state_of(stage: Stage) -> TaskState {
    match stage {
        Stage::Pending => TaskState::Pending,
        Stage::Text | Stage::First => TaskState::Running,
        Stage::Complete => TaskState::Succeeded,
        Stage::Error => TaskState::Failed,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    /// A JSON-like object for tests: `("key", value)` pairs.
    struct Obj(Vec<(&'static str, Value<'static>)>);

    impl Fields for Obj {
        fn field(&self, name: &'static str) -> Value<'_> {
            self.0
                .iter()
                .find(|(k, _)| *k == name)
                .map_or(Value::Missing, |(_, v)| v.clone())
        }
    }

    fn s(v: &'static str) -> Value<'static> {
        Value::Str(Cow::Borrowed(v))
    }

    fn body(code: f64) -> Obj {
        Obj(vec![("code", Value::Num(code)), ("msg", s("m"))])
    }

    fn classify_data(
        code: f64,
        data: &Obj,
        item: Option<&Obj>,
    ) -> Result<Callback, ValidationError> {
        classify(
            &body(code),
            Some(data as &dyn Fields),
            item.map(|i| i as &dyn Fields),
        )
    }

    #[test]
    fn generation_stages() {
        let track = Obj(vec![
            ("id", s("a")),
            ("stream_audio_url", s("u")),
            ("audio_url", s("")),
        ]);
        for (kind, stage, state) in [
            ("text", Stage::Text, TaskState::Running),
            ("first", Stage::First, TaskState::Running),
            ("complete", Stage::Complete, TaskState::Succeeded),
        ] {
            let data = Obj(vec![
                ("callbackType", s(kind)),
                ("task_id", s("t1")),
                ("data", Value::Other),
            ]);
            let c = classify_data(200.0, &data, Some(&track)).unwrap();
            assert_eq!(
                (c.family, c.stage, c.state),
                (TaskFamily::Music, stage, state)
            );
            assert_eq!(c.key(), format!("music:t1:{kind}"));
        }
        // The text stage may come with no tracks at all.
        let data = Obj(vec![
            ("callbackType", s("text")),
            ("task_id", s("t1")),
            ("data", Value::Other),
        ]);
        assert_eq!(
            classify_data(200.0, &data, None).unwrap().family,
            TaskFamily::Music
        );
        let error = Obj(vec![
            ("callbackType", s("error")),
            ("task_id", s("t1")),
            ("data", Value::Null),
        ]);
        let c = classify_data(400.0, &error, None).unwrap();
        assert_eq!(
            (c.family, c.stage, c.state, c.code),
            (TaskFamily::Music, Stage::Error, TaskState::Failed, 400)
        );
    }

    #[test]
    fn lyrics_by_items_or_casing() {
        let item = Obj(vec![
            ("text", s("la")),
            ("title", s("t")),
            ("status", s("complete")),
        ]);
        let data = Obj(vec![
            ("callbackType", s("complete")),
            ("taskId", s("l1")),
            ("data", Value::Other),
        ]);
        let c = classify_data(200.0, &data, Some(&item)).unwrap();
        assert_eq!(
            (c.family, c.stage, c.state),
            (TaskFamily::Lyrics, Stage::Complete, TaskState::Succeeded)
        );
        let failed = Obj(vec![
            ("callbackType", s("error")),
            ("taskId", s("l1")),
            ("data", Value::Null),
        ]);
        assert_eq!(
            classify_data(500.0, &failed, None).unwrap().family,
            TaskFamily::Lyrics
        );
    }

    #[test]
    fn single_shot_families() {
        let cases = [
            (
                vec![("taskId", s("c")), ("images", Value::Other)],
                TaskFamily::Cover,
            ),
            (
                vec![("task_id", s("w")), ("audioWavUrl", s("u"))],
                TaskFamily::Wav,
            ),
            (
                vec![("task_id", s("v")), ("vocal_removal_info", Value::Other)],
                TaskFamily::VocalSeparation,
            ),
            (
                vec![("task_id", s("m")), ("video_url", s("u"))],
                TaskFamily::Video,
            ),
        ];
        for (fields, family) in cases {
            let c = classify_data(200.0, &Obj(fields.clone()), None).unwrap();
            assert_eq!(
                (c.family, c.stage, c.state),
                (family, Stage::Complete, TaskState::Succeeded)
            );
            // The same shape with a null payload is that family's failure.
            let nulled = fields
                .into_iter()
                .map(|(k, v)| {
                    (
                        k,
                        if k.starts_with("task") {
                            v
                        } else {
                            Value::Null
                        },
                    )
                })
                .collect();
            let c = classify_data(500.0, &Obj(nulled), None).unwrap();
            assert_eq!(
                (c.family, c.stage, c.state),
                (family, Stage::Error, TaskState::Failed)
            );
        }
    }

    #[test]
    fn malformed_bodies_are_refused_with_the_field() {
        let data = Obj(vec![("callbackType", s("complete")), ("task_id", s("t"))]);
        let field = |r: Result<Callback, ValidationError>| r.err().map(|e| e.field);
        assert_eq!(
            field(classify(&Obj(vec![]), Some(&data), None)),
            Some("code".into())
        );
        assert_eq!(
            field(classify(&body(200.0), None, None)),
            Some("data".into())
        );
        let no_id = Obj(vec![("callbackType", s("complete"))]);
        assert_eq!(
            field(classify_data(200.0, &no_id, None)),
            Some("data.task_id".into())
        );
        let odd = Obj(vec![("callbackType", s("halfway")), ("task_id", s("t"))]);
        assert_eq!(
            field(classify_data(200.0, &odd, None)),
            Some("data.callbackType".into())
        );
        let unknown = Obj(vec![("task_id", s("t")), ("something", s("x"))]);
        assert_eq!(
            field(classify_data(200.0, &unknown, None)),
            Some("data".into())
        );
        let text_code = Obj(vec![("code", s("abc")), ("data", Value::Other)]);
        assert_eq!(
            field(classify(&text_code, Some(&data), None)),
            Some("code".into())
        );
    }
}
