//! `emulate:` plans: the phases a task goes through, chosen by the token in its request.

use serde_json::{Map, Value};
use tunesmith_protocol::status::{
    generation_failed, is_failure, CALLBACK_EXCEPTION, CREATE_TASK_FAILED, FIRST_SUCCESS,
    SENSITIVE_WORD_ERROR, SUCCESS, TEXT_SUCCESS, VOICE_PHRASE_READY, VOICE_PROCESSING,
    VOICE_SUCCESS,
};
use tunesmith_protocol::waiter::TaskKind;

/// Cover tasks only: the phase shown as integer `successFlag` 2 (not a status word of the service).
pub const GENERATING: &str = "GENERATING";

/// The token of `emulate:TOKEN` in title, prompt or content, else in any other string field.
pub fn emulate_token(param: &Map<String, Value>) -> Option<String> {
    let find = |s: &str| {
        let at = s.find("emulate:")?;
        let token: String = s[at + 8..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
            .collect();
        (!token.is_empty()).then_some(token)
    };
    let preferred = ["title", "prompt", "content"];
    preferred
        .iter()
        .filter_map(|k| param.get(*k).and_then(Value::as_str))
        .chain(
            param
                .iter()
                .filter(|(k, _)| !preferred.contains(&k.as_str()))
                .filter_map(|(_, v)| v.as_str()),
        )
        .find_map(find)
}

/// The phases a task goes through, given its `emulate:` token.
pub fn plan(kind: TaskKind, token: Option<&str>) -> Vec<String> {
    let token = token.map(str::to_ascii_uppercase);
    let skip = token.as_deref() == Some("SKIP-STAGES");
    let failure = match token.as_deref() {
        Some("FAILED") => Some(generation_failed(kind).to_owned()),
        Some(t) if is_failure(t) => Some(t.to_owned()),
        _ => None,
    };
    let v = |xs: &[&str]| xs.iter().map(|s| (*s).to_owned()).collect();
    match (kind, failure) {
        (TaskKind::Music, None) if skip => v(&[SUCCESS]),
        (TaskKind::Music, None) => v(&[TEXT_SUCCESS, FIRST_SUCCESS, SUCCESS]),
        (TaskKind::Music, Some(f)) => match f.as_str() {
            SENSITIVE_WORD_ERROR | CREATE_TASK_FAILED => vec![f],
            CALLBACK_EXCEPTION => vec![TEXT_SUCCESS.into(), FIRST_SUCCESS.into(), f],
            _ => vec![TEXT_SUCCESS.into(), f],
        },
        (TaskKind::Cover, None) if skip => v(&[SUCCESS]),
        (TaskKind::Cover, None) => v(&[GENERATING, SUCCESS]),
        (TaskKind::Cover, Some(_)) => v(&[GENERATING, generation_failed(TaskKind::Cover)]),
        // Voice families: lower-case words; any failure token ends in the family's failure.
        (TaskKind::VoiceValidation, None) => v(&[VOICE_PROCESSING, VOICE_PHRASE_READY]),
        (TaskKind::Voice, None) => v(&[VOICE_PROCESSING, VOICE_SUCCESS]),
        (TaskKind::VoiceValidation | TaskKind::Voice, Some(_)) => {
            v(&[VOICE_PROCESSING, generation_failed(kind)])
        }
        (_, None) => v(&[SUCCESS]),
        (_, Some(f)) => vec![f],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tunesmith_protocol::status::{GENERATE_AUDIO_FAILED, VOICE_FAIL};

    #[test]
    fn tokens_pick_the_plan() {
        let m = |pairs: &[(&str, &str)]| {
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), Value::String((*v).to_owned())))
                .collect::<Map<_, _>>()
        };
        assert_eq!(
            emulate_token(&m(&[("title", "x emulate:SENSITIVE_WORD_ERROR y")])).as_deref(),
            Some("SENSITIVE_WORD_ERROR")
        );
        assert_eq!(
            emulate_token(&m(&[("callBackUrl", "http://h/cb?emulate:failed")])).as_deref(),
            Some("failed")
        );
        assert_eq!(emulate_token(&m(&[("title", "plain")])), None);
        let (text, first) = (TEXT_SUCCESS, FIRST_SUCCESS);
        assert_eq!(plan(TaskKind::Music, None), [text, first, SUCCESS]);
        assert_eq!(plan(TaskKind::Music, Some("skip-stages")), [SUCCESS]);
        assert_eq!(
            plan(TaskKind::Music, Some("SENSITIVE_WORD_ERROR")),
            ["SENSITIVE_WORD_ERROR"]
        );
        assert_eq!(
            plan(TaskKind::Music, Some("failed")),
            [text, GENERATE_AUDIO_FAILED]
        );
        assert_eq!(
            plan(TaskKind::Cover, Some("failed")),
            [GENERATING, "FAILED"]
        );
        assert_eq!(plan(TaskKind::Wav, Some("failed")), ["GENERATE_WAV_FAILED"]);
        assert_eq!(plan(TaskKind::Lyrics, None), [SUCCESS]);
        assert_eq!(
            plan(TaskKind::Voice, Some("failed")),
            [VOICE_PROCESSING, VOICE_FAIL]
        );
        assert_eq!(
            plan(TaskKind::Midi, Some("failed")),
            ["MIDI_GENERATION_FAILED"]
        );
    }
}
