//! Request bodies as both hosts read them: a pause longer than the read timeout ends a body with
//! an error, and a body its handler left unread is handed back, so that the edge can read it to the
//! end (up to a limit, as common servers do) before answering. A client still sending a large
//! upload that is refused then sees the answer, not a reset connection. (Native server only.)

#[cfg(feature = "native")]
mod timed {
    use std::future::Future;
    use std::pin::Pin;
    use std::task::{Context, Poll};
    use std::time::Duration;

    use axum::body::{Body, Bytes, HttpBody};
    use axum::extract::Request;
    use http_body::{Frame, SizeHint};
    use tokio::sync::oneshot;
    use tokio::time::Sleep;

    /// How long a refused body is read at most before the connection is closed anyway.
    const DRAIN_TIME: Duration = Duration::from_secs(30);

    /// A request body with a read timeout, handed back through `back` if dropped unread.
    struct Guarded {
        inner: Option<Body>,
        timeout: Duration,
        /// Set on the first read, so that time the handler spends before reading is not the client's.
        deadline: Option<Pin<Box<Sleep>>>,
        back: Option<oneshot::Sender<Body>>,
    }

    #[derive(Debug)]
    struct TimedOut(Duration);

    impl std::fmt::Display for TimedOut {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "the client sent nothing for {} ms", self.0.as_millis())
        }
    }

    impl std::error::Error for TimedOut {}

    impl Guarded {
        fn wait(&mut self) -> &mut Pin<Box<Sleep>> {
            let timeout = self.timeout;
            self.deadline
                .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)))
        }
    }

    impl HttpBody for Guarded {
        type Data = Bytes;
        type Error = axum::Error;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
            let this = &mut *self;
            let Some(inner) = this.inner.as_mut() else {
                return Poll::Ready(None);
            };
            match Pin::new(inner).poll_frame(cx) {
                Poll::Ready(Some(Ok(frame))) => {
                    let next = tokio::time::Instant::now() + this.timeout;
                    this.wait().as_mut().reset(next);
                    Poll::Ready(Some(Ok(frame)))
                }
                Poll::Ready(other) => {
                    // The end, or a broken body: nothing is left to hand back.
                    this.inner = None;
                    Poll::Ready(other)
                }
                Poll::Pending => {
                    if this.wait().as_mut().poll(cx).is_ready() {
                        this.inner = None;
                        return Poll::Ready(Some(Err(axum::Error::new(TimedOut(this.timeout)))));
                    }
                    Poll::Pending
                }
            }
        }

        fn is_end_stream(&self) -> bool {
            self.inner.as_ref().is_none_or(HttpBody::is_end_stream)
        }

        fn size_hint(&self) -> SizeHint {
            self.inner
                .as_ref()
                .map_or_else(|| SizeHint::with_exact(0), HttpBody::size_hint)
        }
    }

    impl Drop for Guarded {
        fn drop(&mut self) {
            if let (Some(inner), Some(back)) = (self.inner.take(), self.back.take()) {
                if !inner.is_end_stream() {
                    let _ = back.send(inner);
                }
            }
        }
    }

    /// Gives `req` a body with a read timeout; the receiver gets the body back if it is left unread.
    pub fn guard(req: Request, timeout: Duration) -> (Request, oneshot::Receiver<Body>) {
        let (tx, rx) = oneshot::channel();
        let req = req.map(|inner| {
            Body::new(Guarded {
                inner: Some(inner),
                timeout,
                deadline: None,
                back: Some(tx),
            })
        });
        (req, rx)
    }

    /// Reads and discards what is left of a body handed back, unless it declares more than `limit`
    /// bytes; stops at `limit` bytes, at a pause of `timeout`, or after [`DRAIN_TIME`].
    pub async fn drain(mut back: oneshot::Receiver<Body>, limit: u64, timeout: Duration) {
        let Ok(rest) = back.try_recv() else {
            return;
        };
        if rest.size_hint().lower() > limit {
            return;
        }
        let mut body = Guarded {
            inner: Some(rest),
            timeout,
            deadline: None,
            back: None,
        };
        let mut read = 0u64;
        let reading = async {
            while let Some(Ok(frame)) =
                std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await
            {
                read += frame.data_ref().map_or(0, |d| d.len() as u64);
                if read > limit {
                    break;
                }
            }
        };
        let _ = tokio::time::timeout(DRAIN_TIME, reading).await;
    }
}

#[cfg(feature = "native")]
pub use timed::{drain, guard};

/// Without the native server, a request arrives whole (the JavaScript host reads it before it
/// hands it over; on a port, Node's server times out slow clients): nothing to guard or drain.
#[cfg(not(feature = "native"))]
pub fn guard(
    req: axum::extract::Request,
    _timeout: std::time::Duration,
) -> (axum::extract::Request, ()) {
    (req, ())
}

#[cfg(not(feature = "native"))]
pub async fn drain(_back: (), _limit: u64, _timeout: std::time::Duration) {}
