//! Callback delivery of one task: each phase's callback in order, when its time comes. A delivery
//! counts only if the receiver answers 200 within the callback timeout; after 3 consecutive failed
//! attempts no more callbacks are sent for the task. The task's outcome never depends on delivery.

use std::time::Duration;

use crate::AppState;

/// Consecutive failed attempts after which a task's callbacks stop.
pub const MAX_CONSECUTIVE_FAILURES: u32 = 3;

pub fn spawn(app: AppState, id: String) {
    tokio::spawn(async move {
        let mut stop = app.shutdown.clone();
        tokio::select! {
            () = run(&app, &id) => {}
            _ = stop.wait_for(|s| *s) => {}
        }
    });
}

async fn run(app: &AppState, id: &str) {
    loop {
        let Some(task) = app.tasks.get(id) else {
            return;
        };
        let Some(url) = task.callback_url.clone() else {
            return;
        };
        let mut delivery = task.delivery.clone();
        if delivery.stopped || delivery.next >= task.phases.len() {
            return;
        }
        let phase = delivery.next;
        let wait = task.due_ms(phase) - app.clock.now_ms();
        if wait > 0 {
            tokio::time::sleep(Duration::from_millis(wait as u64)).await;
            continue;
        }
        if task.calls_back_at(phase) {
            let body = crate::routes::callback_body(app, &task, phase);
            loop {
                if post(app, &url, &body).await {
                    delivery.failures = 0;
                    break;
                }
                delivery.failures += 1;
                delivery.stopped = delivery.failures >= MAX_CONSECUTIVE_FAILURES;
                save(app, id, &delivery);
                if delivery.stopped {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(app.config.callback_retry_delay_ms)).await;
            }
        }
        delivery.next = phase + 1;
        save(app, id, &delivery);
    }
}

fn save(app: &AppState, id: &str, delivery: &crate::tasks::Delivery) {
    if let Err(e) = app.tasks.set_delivery(id, delivery.clone()) {
        eprintln!("could not record callback delivery of task {id}: {e}");
    }
}

async fn post(app: &AppState, url: &str, body: &serde_json::Value) -> bool {
    let sent = app
        .callbacks
        .post(url)
        .json(body)
        .timeout(Duration::from_millis(app.config.callback_timeout_ms))
        .send()
        .await;
    match sent {
        // The body must arrive within the timeout too.
        Ok(res) if res.status().as_u16() == 200 => res.bytes().await.is_ok(),
        _ => false,
    }
}
