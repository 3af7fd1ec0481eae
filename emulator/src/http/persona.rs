//! Handler of generatePersona: a persona from a finished generated track, answered at once
//! (cover numbering: 409 when the track already has one, 422 when the track is not finished).

use axum::extract::State;
use axum::response::Response;
use tunesmith_protocol::status::SUCCESS;
use tunesmith_protocol::wire::PersonaRecord;
use tunesmith_protocol::{Family, Op};

use super::envelope::{ok, ApiError};
use super::extract::{Caller, ValidBody};
use crate::app::AppState;
use crate::core::create::charge;
use crate::core::personas::Persona;
use crate::families::common::text;

const F: Family = Family::Cover;

pub async fn create(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let (task, i) = app
        .tasks
        .music_track(text(&param, "taskId"), text(&param, "audioId"), 0)
        .map_err(|e| ApiError::from_core(F, e))?;
    let status = task.status(app.now_ms()).to_owned();
    if status != SUCCESS {
        return Err(ApiError::new(
            F,
            422,
            format!(
                "The track is not finished (task {} is {status}): a persona is made from a generated track",
                task.id
            ),
        ));
    }
    let persona = Persona {
        id: app.random_id(),
        name: text(&param, "name").unwrap_or_default().to_owned(),
        description: text(&param, "description").unwrap_or_default().to_owned(),
        audio_id: task.tracks[i].id.clone(),
    };
    if app.personas.get_by_track(&persona.audio_id).is_some() {
        return Err(ApiError::new(
            F,
            409,
            format!("Conflict: track {} already has a persona", persona.audio_id),
        ));
    }
    charge(&app.credits, &caller.key, Op::GeneratePersona, &param)
        .map_err(|e| ApiError::from_core(F, e))?;
    app.personas
        .insert(persona.clone())
        .map_err(|e| ApiError::from_core(F, e))?;
    Ok(ok(PersonaRecord {
        persona_id: persona.id,
        name: persona.name,
        description: persona.description,
    }))
}
