//! Generated media at public URLs (no auth, so `<audio>` and `<img>` can load them): made on first
//! download (`products.rs`), visible once their stage is reached, and gone (404) once the task's
//! retention has passed.

use axum::extract::{Path, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::send_file::send_file;
use crate::app::AppState;
use crate::families::files::resolve;
use crate::products;

fn not_found(what: &str) -> Response {
    (StatusCode::NOT_FOUND, format!("{what}\n")).into_response()
}

pub async fn serve(
    State(app): State<AppState>,
    Path((task_id, name)): Path<(String, String)>,
    req: Request,
) -> Response {
    let Some(task) = app.tasks.get(&task_id) else {
        return not_found("no such file");
    };
    let now = app.now_ms();
    if task.expired(now) {
        app.dirs
            .storage
            .remove_dir_all(&app.dirs.files.join(&task.id));
        return not_found("this file has expired");
    }
    let Some(product) = resolve(&task, &name, now) else {
        return not_found("no such file (or not generated yet)");
    };
    let path = products::path(&app, &task, product, &name);
    if !app.dirs.storage.exists(&path)
        && products::make(&app, &task, product, &path).await.is_none()
    {
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            "could not generate the file\n",
        )
            .into_response();
    }
    match send_file(&app, &path, req).await {
        Ok(res) => res,
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, format!("{e}\n")).into_response(),
    }
}
