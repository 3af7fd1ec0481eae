//! What the core refuses, in its own words: the HTTP edge maps each to the envelope code of the
//! endpoint's table of codes (`http/envelope.rs`).

use std::fmt;

#[derive(Debug)]
pub enum CoreError {
    /// The operation creates no task.
    NotATaskOperation,
    /// No such task, track or file; the text says which.
    NotFound(String),
    /// A rule of the request that only the task's context can check (e.g. an extension's model).
    Invalid(String),
    /// The result exists at most once and already does (a second cover or WAV).
    Conflict,
    InsufficientCredits {
        cost: i64,
        balance: i64,
    },
    /// The record could not be stored.
    Storage(std::io::Error),
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::NotATaskOperation => f.write_str("Not a task operation"),
            CoreError::NotFound(what) | CoreError::Invalid(what) => f.write_str(what),
            CoreError::Conflict => {
                f.write_str("Conflict: the record already exists; query it instead")
            }
            CoreError::InsufficientCredits { cost, balance } => write!(
                f,
                "Insufficient credits: this call costs {cost}, the key has {balance}"
            ),
            CoreError::Storage(e) => write!(f, "could not store the record: {e}"),
        }
    }
}

impl From<std::io::Error> for CoreError {
    fn from(e: std::io::Error) -> Self {
        CoreError::Storage(e)
    }
}
