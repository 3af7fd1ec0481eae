//! `emulate:` plans: the phases a task goes through, chosen by the token in its request.

use serde_json::{Map, Value};
use tunesmith_protocol::status::{
    is_failure, CALLBACK_EXCEPTION, CREATE_TASK_FAILED, FIRST_SUCCESS, SENSITIVE_WORD_ERROR,
    SUCCESS, TEXT_SUCCESS, VOICE_PHRASE_READY, VOICE_PROCESSING, VOICE_SUCCESS,
};
use tunesmith_protocol::TaskFamily;

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
pub fn plan(kind: TaskFamily, token: Option<&str>) -> Vec<String> {
    let token = token.map(str::to_ascii_uppercase);
    let skip = token.as_deref() == Some("SKIP-STAGES");
    let failure = match token.as_deref() {
        Some("FAILED") => Some(kind.generation_failed().to_owned()),
        Some(t) if is_failure(t) => Some(t.to_owned()),
        _ => None,
    };
    let v = |xs: &[&str]| xs.iter().map(|s| (*s).to_owned()).collect();
    match (kind, failure) {
        (TaskFamily::Music, None) if skip => v(&[SUCCESS]),
        (TaskFamily::Music, None) => v(&[TEXT_SUCCESS, FIRST_SUCCESS, SUCCESS]),
        (TaskFamily::Music, Some(f)) => match f.as_str() {
            SENSITIVE_WORD_ERROR | CREATE_TASK_FAILED => vec![f],
            CALLBACK_EXCEPTION => vec![TEXT_SUCCESS.into(), FIRST_SUCCESS.into(), f],
            _ => vec![TEXT_SUCCESS.into(), f],
        },
        (TaskFamily::Cover, None) if skip => v(&[SUCCESS]),
        (TaskFamily::Cover, None) => v(&[GENERATING, SUCCESS]),
        (TaskFamily::Cover, Some(_)) => v(&[GENERATING, TaskFamily::Cover.generation_failed()]),
        // Voice families: lower-case words; any failure token ends in the family's failure.
        (TaskFamily::VoiceValidation, None) => v(&[VOICE_PROCESSING, VOICE_PHRASE_READY]),
        (TaskFamily::Voice, None) => v(&[VOICE_PROCESSING, VOICE_SUCCESS]),
        (TaskFamily::VoiceValidation | TaskFamily::Voice, Some(_)) => {
            v(&[VOICE_PROCESSING, kind.generation_failed()])
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
        assert_eq!(plan(TaskFamily::Music, None), [text, first, SUCCESS]);
        assert_eq!(plan(TaskFamily::Music, Some("skip-stages")), [SUCCESS]);
        assert_eq!(
            plan(TaskFamily::Music, Some("SENSITIVE_WORD_ERROR")),
            ["SENSITIVE_WORD_ERROR"]
        );
        assert_eq!(
            plan(TaskFamily::Music, Some("failed")),
            [text, GENERATE_AUDIO_FAILED]
        );
        assert_eq!(
            plan(TaskFamily::Cover, Some("failed")),
            [GENERATING, "FAILED"]
        );
        assert_eq!(
            plan(TaskFamily::Wav, Some("failed")),
            ["GENERATE_WAV_FAILED"]
        );
        assert_eq!(plan(TaskFamily::Lyrics, None), [SUCCESS]);
        assert_eq!(
            plan(TaskFamily::Voice, Some("failed")),
            [VOICE_PROCESSING, VOICE_FAIL]
        );
        assert_eq!(
            plan(TaskFamily::Midi, Some("failed")),
            ["MIDI_GENERATION_FAILED"]
        );
    }
}
