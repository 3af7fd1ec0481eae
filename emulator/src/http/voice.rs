//! Custom voices, in their documented order: validate (a phrase for the singer), its status, a
//! new phrase (regenerate, which supersedes the old validation), create the voice from the
//! recorded phrase, its status, and whether it can sing.

use axum::extract::State;
use axum::response::Response;
use serde_json::Value;
use tunesmith_protocol::status::{Failure, VOICE_VALIDATE_FAIL};
use tunesmith_protocol::upload::sniff_mime;
use tunesmith_protocol::wire::VoiceAvailability;
use tunesmith_protocol::TaskFamily;
use tunesmith_protocol::{CodeTable, Op, RuleKind};
use url::Url;

use super::envelope::{ok, ApiError};
use super::extract::{Caller, ValidBody, ValidQuery};
use super::tasks::{create as create_task, draft, queried};
use crate::app::AppState;
use crate::core::store::fnv;
use crate::families::common::text;
use crate::families::voice;
use crate::{media, sources};

const F: CodeTable = CodeTable::Music;

fn refuse(field: &str, what: String) -> ApiError {
    ApiError::new(
        F,
        400,
        format!("`{field}` {what} (rule: {})", RuleKind::Dependency.as_str()),
    )
}

/// An audio file uploaded to this emulator's upload host: its length in seconds when it is a WAV
/// (other audio formats are not measured); why not otherwise.
async fn uploaded_audio(app: &AppState, url: &str) -> Result<Option<f64>, String> {
    let ours = Url::parse(url).is_ok_and(|u| sources::is_upload_url(app, &u));
    if !ours {
        return Err(format!(
            "must be a file uploaded to the upload host ({}): upload the recording first",
            app.upload_base
        ));
    }
    let bytes = sources::fetch(app, url)
        .await
        .ok_or_else(|| "names no uploaded file (or it has expired)".to_owned())?;
    let mime = sniff_mime(&bytes);
    if !mime.starts_with("audio/") {
        return Err(format!("is not audio (the file is {mime})"));
    }
    Ok(media::wav_duration(&bytes).map(f64::from))
}

pub async fn validate(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let mut task = draft(&app, &caller, param)?;
    let url = text(&task.param, "voiceUrl").unwrap_or_default().to_owned();
    match uploaded_audio(&app, &url).await {
        Err(why) => task.fail_at_once(
            VOICE_VALIDATE_FAIL,
            Failure {
                code: 400,
                message: format!("voiceUrl {why}"),
            },
        ),
        Ok(Some(seconds)) => {
            let end = task
                .param
                .get("vocalEndS")
                .and_then(Value::as_f64)
                .unwrap_or(0.0);
            if end > seconds {
                return Err(ApiError::new(
                    F,
                    400,
                    format!(
                        "`vocalEndS` must be within the recording's length of {seconds:.2} seconds (got {end}) (rule: {})",
                        RuleKind::Range.as_str()
                    ),
                ));
            }
        }
        Ok(None) => {}
    }
    create_task(&app, &caller, task)
}

pub async fn validate_info(
    State(app): State<AppState>,
    ValidQuery(q): ValidQuery,
) -> Result<Response, ApiError> {
    let task = queried(
        &app,
        Op::GetVoiceValidation,
        TaskFamily::VoiceValidation,
        &q,
    )?;
    Ok(ok(voice::validation_record(&task, app.now_ms())))
}

/// The validation task `id`, if it can still be used: not superseded by a regenerated phrase.
fn current_validation(
    app: &AppState,
    id: &str,
) -> Result<std::sync::Arc<crate::core::task::Task>, ApiError> {
    let task = app
        .tasks
        .of_kind(id, TaskFamily::VoiceValidation)
        .map_err(|e| ApiError::from_core(F, e))?;
    if let Some(new) = app.personas.superseded_by(id) {
        return Err(refuse(
            "taskId",
            format!(
                "{id} was superseded by regenerate task {new}: use that task's phrase and taskId"
            ),
        ));
    }
    Ok(task)
}

pub async fn regenerate(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let old_id = text(&param, "taskId").unwrap_or_default().to_owned();
    let old = current_validation(&app, &old_id)?;
    let now = app.now_ms();
    if !voice::phrase_ready(&old, now) {
        return Err(refuse(
            "taskId",
            format!(
                "{old_id} has no phrase to replace yet (status {})",
                voice::validation_record(&old, now).status
            ),
        ));
    }
    let mut task = draft(&app, &caller, param)?;
    // The new phrase is for the same recording, in the same language.
    for key in ["voiceUrl", "vocalStartS", "vocalEndS", "language"] {
        if let Some(v) = old.param.get(key) {
            task.param.insert(key.to_owned(), v.clone());
        }
    }
    task.callback_url = text(&task.param, "calBackUrl").map(str::to_owned);
    task.parent_task = Some(old.id.clone());
    let language = voice::language(&old).to_owned();
    let old_phrase = voice::phrase(old.seed, &language);
    while voice::phrase(task.seed, &language) == old_phrase {
        task.seed = fnv(&[b"another phrase", &task.seed.to_le_bytes()]);
    }
    let new_id = task.id.clone();
    let res = create_task(&app, &caller, task)?;
    if let Err(e) = app.personas.supersede(&old_id, &new_id) {
        eprintln!("could not record that {new_id} supersedes {old_id}: {e}");
    }
    Ok(res)
}

pub async fn create(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let id = text(&param, "taskId").unwrap_or_default().to_owned();
    let validation = current_validation(&app, &id)?;
    let now = app.now_ms();
    if !voice::phrase_ready(&validation, now) {
        return Err(refuse(
            "taskId",
            format!(
                "{id}: its phrase is not ready (status {}); createVoice needs status wait_validating",
                voice::validation_record(&validation, now).status
            ),
        ));
    }
    let url = text(&param, "verifyUrl").unwrap_or_default().to_owned();
    uploaded_audio(&app, &url)
        .await
        .map_err(|why| refuse("verifyUrl", why))?;
    let mut task = draft(&app, &caller, param)?;
    task.parent_task = Some(id);
    if let Err(e) = app.personas.add_voice(&voice::voice_id(&task), &task.id) {
        eprintln!("server error: could not store the voice: {e}");
        return Err(ApiError::new(
            F,
            500,
            "Server error: could not store the voice",
        ));
    }
    create_task(&app, &caller, task)
}

pub async fn get(
    State(app): State<AppState>,
    ValidQuery(q): ValidQuery,
) -> Result<Response, ApiError> {
    let task = queried(&app, Op::GetVoice, TaskFamily::Voice, &q)?;
    Ok(ok(voice::voice_record(&task, app.now_ms())))
}

/// Answers at once: whether the voice task `task_id` has made a voice that can sing.
pub async fn check(
    State(app): State<AppState>,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let id = text(&param, "task_id").unwrap_or_default();
    let task = app
        .tasks
        .of_kind(id, TaskFamily::Voice)
        .map_err(|e| ApiError::from_core(F, e))?;
    Ok(ok(VoiceAvailability {
        is_available: voice::available(&task, app.now_ms()),
    }))
}
