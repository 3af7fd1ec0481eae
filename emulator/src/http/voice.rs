//! Handlers of the voice flow, in its documented order: validate (a phrase to record), its
//! status, a new phrase (`calBackUrl`), create the voice from the recorded phrase, its status, and
//! whether it can be used (`task_id`).

use axum::extract::State;
use axum::response::Response;
use serde_json::Value;
use tunesmith_protocol::status::SUCCESS;
use tunesmith_protocol::waiter::TaskKind;
use tunesmith_protocol::wire::VoiceAvailability;
use tunesmith_protocol::{Family, Op};

use super::envelope::{ok, ApiError};
use super::extract::{Caller, ValidBody, ValidQuery};
use super::tasks::{create as create_task, draft, queried};
use crate::app::AppState;
use crate::families::common::text;
use crate::families::voice;
use crate::{media, sources};

const F: Family = Family::Music;

/// A recording the flow needs: fetched, and (when it is a WAV) long enough for `end_s`.
async fn recording(
    app: &AppState,
    field: &str,
    url: &str,
    end_s: Option<f64>,
) -> Result<(), ApiError> {
    let bytes = sources::fetch(app, url)
        .await
        .ok_or_else(|| ApiError::new(F, 400, format!("`{field}` could not be fetched: {url}")))?;
    if let (Some(end), Some(length)) = (end_s, media::wav_duration(&bytes)) {
        if end > f64::from(length) + 0.01 {
            return Err(ApiError::new(
                F,
                400,
                format!("`vocalEndS` must be within the recording, which lasts {length:.2} seconds (got {end}) (rule: range)"),
            ));
        }
    }
    Ok(())
}

pub async fn validate(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let end = param.get("vocalEndS").and_then(Value::as_f64);
    recording(
        &app,
        "voiceUrl",
        text(&param, "voiceUrl").unwrap_or_default(),
        end,
    )
    .await?;
    let mut task = draft(&app, &caller, param)?;
    task.phrase = Some(voice::phrase(
        text(&task.param, "language"),
        task.seed,
        None,
    ));
    create_task(&app, &caller, task)
}

pub async fn get_validation(
    State(app): State<AppState>,
    ValidQuery(q): ValidQuery,
) -> Result<Response, ApiError> {
    let task = queried(&app, Op::GetVoiceValidation, TaskKind::VoiceValidation, &q)?;
    Ok(ok(voice::validation_record(&task, app.now_ms())))
}

/// A new phrase: a new validation task of the same recording, whose phrase differs.
pub async fn regenerate(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let id = text(&param, "taskId").unwrap_or_default();
    let original = app
        .tasks
        .of_kind(id, TaskKind::VoiceValidation)
        .map_err(|e| ApiError::from_core(F, e))?;
    let mut task = draft(&app, &caller, param)?;
    task.callback_url = text(&task.param, "calBackUrl").map(str::to_owned);
    task.phrase = Some(voice::phrase(
        text(&original.param, "language"),
        task.seed,
        original.phrase.as_deref(),
    ));
    task.parent_task = Some(original.id.clone());
    create_task(&app, &caller, task)
}

/// The voice, from a validation whose phrase is ready and the recording of that phrase.
pub async fn create(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let id = text(&param, "taskId").unwrap_or_default();
    let validation = app
        .tasks
        .of_kind(id, TaskKind::VoiceValidation)
        .map_err(|e| ApiError::from_core(F, e))?;
    let status = validation.status(app.now_ms()).to_owned();
    if status != SUCCESS {
        let shown = voice::validation_record(&validation, app.now_ms()).status;
        return Err(ApiError::new(
            F,
            400,
            format!("Voice validation {id} has no phrase to record yet (status {shown}): wait for wait_validating"),
        ));
    }
    recording(
        &app,
        "verifyUrl",
        text(&param, "verifyUrl").unwrap_or_default(),
        None,
    )
    .await?;
    let mut task = draft(&app, &caller, param)?;
    task.parent_task = Some(validation.id.clone());
    create_task(&app, &caller, task)
}

pub async fn get_voice(
    State(app): State<AppState>,
    ValidQuery(q): ValidQuery,
) -> Result<Response, ApiError> {
    let task = queried(&app, Op::GetVoice, TaskKind::Voice, &q)?;
    Ok(ok(voice::voice_record(&task, app.now_ms())))
}

pub async fn check(
    State(app): State<AppState>,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let id = text(&param, "task_id").unwrap_or_default();
    let task = app
        .tasks
        .of_kind(id, TaskKind::Voice)
        .map_err(|e| ApiError::from_core(F, e))?;
    Ok(ok(VoiceAvailability {
        is_available: voice::is_available(&task, app.now_ms()),
    }))
}
