//! Serving one host over HTTP/1.1: a header read timeout, so that a client trickling its request
//! cannot hold a connection, and a bound on open connections (past it, new ones wait to be
//! accepted), so that many such clients cannot take every file descriptor.

use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinSet;

/// What a host allows its clients.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Longest wait for a complete request header (also how long an idle connection is kept).
    pub read_timeout: Duration,
    pub max_connections: usize,
}

/// Resolves once the emulator is told to stop.
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// Serves `router` on `listener` until `stop` turns true, then lets open requests finish.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    mut stop: watch::Receiver<bool>,
) {
    let open = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let mut connections = JoinSet::new();
    loop {
        let permit = tokio::select! {
            permit = open.clone().acquire_owned() => match permit {
                Ok(p) => p,
                Err(_) => break,
            },
            () = stopped(&mut stop) => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors and the like: pause rather than spin.
                    eprintln!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = stopped(&mut stop) => break,
        };
        let service = TowerToHyperService::new(router.clone());
        let mut stop = stop.clone();
        connections.spawn(async move {
            let _permit = permit;
            let mut conn = pin!(hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.read_timeout)
                .serve_connection(TokioIo::new(stream), service));
            tokio::select! {
                _ = conn.as_mut() => return,
                () = stopped(&mut stop) => {}
            }
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        });
        while connections.try_join_next().is_some() {}
    }
    while connections.join_next().await.is_some() {}
}
