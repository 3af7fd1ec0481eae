//! Callback delivery of one task: each phase's callback in order, when its time comes on the
//! emulator's clock (so advancing a manual clock delivers at once). What to do next is the core's
//! decision ([`crate::core::delivery`]); this loop posts, sleeps and records.
//!
//! When a receiver does not answer 200 within `--callback-timeout-ms` (15 s by default, the
//! service's rule), the attempt counts as failed: it is retried after `--callback-retry-delay-ms`,
//! and after 3 consecutive failures no more callbacks are sent for the task. The task's outcome
//! never depends on delivery.

use serde_json::Value;

use crate::app::AppState;
use crate::clock::sleep_until;
use crate::core::delivery::{Delivery, Step};
use crate::families::callback;

/// Delivers the callbacks of task `id` in the background, until done or the emulator stops.
pub fn spawn(app: AppState, id: String) {
    app.activity.begin();
    let runtime = app.host.runtime.clone();
    runtime.spawn(Box::pin(async move {
        let mut stop = app.shutdown.clone();
        tokio::select! {
            biased;
            () = run(&app, &id) => {}
            _ = stop.wait_for(|s| *s) => {}
        }
        app.activity.end();
    }));
}

async fn run(app: &AppState, id: &str) {
    let Some(mut delivery) = app.tasks.get(id).map(|t| t.delivery.clone()) else {
        return;
    };
    loop {
        let Some(task) = app.tasks.get(id) else {
            return;
        };
        match delivery.poll(&*task, app.now_ms()) {
            Step::Done => return,
            Step::WaitUntil(at) => {
                app.activity.sleep(at);
                sleep_until(app.clock.as_ref(), app.host.runtime.as_ref(), at).await;
                app.activity.wake(at);
            }
            Step::Post(phase) => {
                let Some(url) = task.callback_url.as_deref() else {
                    return;
                };
                let body = callback::body(&task, phase, app.links());
                if post(app, url, &body).await {
                    delivery.on_delivered(phase);
                } else {
                    delivery.on_failed(app.now_ms(), app.config.callback_retry_delay_ms);
                }
                save(app, id, &delivery);
            }
        }
    }
}

/// Keeps the state on disk so that a restarted emulator resumes where delivery stood.
fn save(app: &AppState, id: &str, delivery: &Delivery) {
    if let Err(e) = app.tasks.set_delivery(id, delivery.clone()) {
        eprintln!("could not record callback delivery of task {id}: {e}");
    }
}

/// One attempt: `true` when the receiver answered 200, body included, within the timeout.
async fn post(app: &AppState, url: &str, body: &Value) -> bool {
    let Ok(bytes) = serde_json::to_vec(body) else {
        return false;
    };
    app.host
        .outbound
        .post_json(url.to_owned(), bytes, app.config.callback_timeout_ms)
        .await
}
