//! Personas: made at once from a finished generated track (the cover table's numbering: 404 unknown
//! track, 409 a second persona of the same track, 422 a segment the track cannot hold), then
//! accepted as `personaId` by generate, extend, upload-cover and upload-extend.

use axum::extract::State;
use axum::response::Response;
use serde_json::{Map, Value};
use tunesmith_protocol::endpoints::{
    PERSONA_DEFAULT_END_S, PERSONA_DEFAULT_START_S, PERSONA_SEGMENT_MIN_S,
};
use tunesmith_protocol::status::SUCCESS;
use tunesmith_protocol::wire::PersonaRecord;
use tunesmith_protocol::{CodeTable, ErrorKind, Op, RuleKind};

use super::envelope::{ok, ApiError};
use super::extract::{Caller, ValidBody};
use crate::app::AppState;
use crate::core::create::charge;
use crate::core::personas::Persona;
use crate::families::common::text;
use crate::families::voice;

const F: CodeTable = CodeTable::Cover;

fn invalid(msg: String) -> ApiError {
    ApiError::kind(F, ErrorKind::Invalid, msg)
}

pub async fn create(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let (task, i) = app
        .tasks
        .music_track(text(&param, "taskId"), text(&param, "audioId"), 0)
        .map_err(|e| ApiError::from_core(F, e))?;
    let now = app.now_ms();
    if !task.has_reached(now, SUCCESS) {
        return Err(invalid(format!(
            "`audioId` must be a finished generated track: task {} is {} (rule: {})",
            task.id,
            task.status(now),
            RuleKind::Dependency.as_str()
        )));
    }
    let track = &task.tracks[i];
    let start = param
        .get("vocalStart")
        .and_then(Value::as_f64)
        .unwrap_or(PERSONA_DEFAULT_START_S);
    let end = match param.get("vocalEnd").and_then(Value::as_f64) {
        Some(end) => end,
        // The default end stops at a shorter track's end.
        None => PERSONA_DEFAULT_END_S.min(track.seconds),
    };
    if end > track.seconds || end - start < PERSONA_SEGMENT_MIN_S {
        return Err(invalid(format!(
            "`vocalEnd` must be within the track's duration of {} seconds, at least {PERSONA_SEGMENT_MIN_S} s after vocalStart (got {start} to {end}) (rule: {})",
            track.seconds,
            RuleKind::Range.as_str()
        )));
    }
    if app.personas.of_audio(&track.id).is_some() {
        return Err(ApiError::kind(
            F,
            ErrorKind::Conflict,
            "Persona already exists for this music",
        ));
    }
    charge(&app.credits, &caller.key, Op::GeneratePersona, &param)
        .map_err(|e| ApiError::from_core(F, e))?;
    let persona = Persona {
        persona_id: app.random_id(),
        name: text(&param, "name").unwrap_or_default().to_owned(),
        description: text(&param, "description").unwrap_or_default().to_owned(),
        style: text(&param, "style").map(str::to_owned),
        task_id: task.id.clone(),
        audio_id: track.id.clone(),
        vocal_start: start,
        vocal_end: end,
        created_ms: now,
    };
    let record = PersonaRecord {
        persona_id: persona.persona_id.clone(),
        name: persona.name.clone(),
        description: persona.description.clone(),
    };
    match app.personas.add(persona) {
        Ok(true) => Ok(ok(record)),
        Ok(false) => Err(ApiError::kind(
            F,
            ErrorKind::Conflict,
            "Persona already exists for this music",
        )),
        Err(e) => {
            eprintln!("server error: could not store the persona: {e}");
            Err(ApiError::kind(
                F,
                ErrorKind::Server,
                "Server error: could not store the persona",
            ))
        }
    }
}

/// A music request's `personaId` must name a persona of this emulator, or with
/// `personaModel: "voice_persona"` a voice whose task succeeded: else 400, naming the field.
pub fn check_use(app: &AppState, param: &Map<String, Value>) -> Result<(), ApiError> {
    let Some(id) = text(param, "personaId") else {
        return Ok(());
    };
    let refuse = |what: &str| {
        Err(ApiError::new(
            CodeTable::Music,
            400,
            format!(
                "`personaId` {id} is {what} (rule: {})",
                RuleKind::Dependency.as_str()
            ),
        ))
    };
    if text(param, "personaModel") == Some("voice_persona") {
        let task = app.personas.voice_task(id).and_then(|t| app.tasks.get(&t));
        return match task {
            Some(t) if voice::available(&t, app.now_ms()) => Ok(()),
            Some(_) => refuse("a voice that is not ready: wait for its voice task to succeed"),
            None => refuse("not a voice: with personaModel voice_persona it must be a `voiceId` of createVoice"),
        };
    }
    if app.personas.get(id).is_none() {
        return refuse("not a persona: make one with generatePersona (or pass personaModel voice_persona for a voiceId)");
    }
    Ok(())
}
