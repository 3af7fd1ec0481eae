//! Envelope `code` tables: what each code means, per table of codes; and the one list of error
//! kinds the client reports, in both of its faces and in the `.d.ts`.

/// The tables of envelope codes: groups of endpoints whose codes mean different things
/// (service.md, "Errors"). Each endpoint names its table in its row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CodeTable {
    /// Generation and the other music endpoints: 429 = insufficient credits, 405/430 = rate limit.
    Music,
    /// Cover images: 402 = insufficient credits, 429 = rate limit, 422 = validation.
    Cover,
    /// Mashups, since V6: 402 = insufficient credits, 429 = rate limit, 422 = validation, 451 = a
    /// source could not be fetched (the reverse of the music table's 429 and 430). No 400.
    Mashup,
    /// The upload host: the HTTP status carries the outcome; the body has `success`, `code`, `msg`.
    Upload,
}

/// What the service's refusal means, whichever table numbered it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    Unauthorized,
    InsufficientCredits,
    RateLimited,
    Maintenance,
    NotFound,
    Conflict,
    Invalid,
    Server,
}

impl ErrorKind {
    pub const ALL: [ErrorKind; 8] = [
        ErrorKind::Unauthorized,
        ErrorKind::InsufficientCredits,
        ErrorKind::RateLimited,
        ErrorKind::Maintenance,
        ErrorKind::NotFound,
        ErrorKind::Conflict,
        ErrorKind::Invalid,
        ErrorKind::Server,
    ];

    /// The string JavaScript sees in `error.kind`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Unauthorized => "unauthorized",
            ErrorKind::InsufficientCredits => "insufficient_credits",
            ErrorKind::RateLimited => "rate_limited",
            ErrorKind::Maintenance => "maintenance",
            ErrorKind::NotFound => "not_found",
            ErrorKind::Conflict => "conflict",
            ErrorKind::Invalid => "invalid",
            ErrorKind::Server => "server",
        }
    }

    /// The service refused before doing anything, so repeating the call cannot create or charge twice.
    pub const fn nothing_was_done(self) -> bool {
        matches!(self, ErrorKind::RateLimited | ErrorKind::Maintenance)
    }

    /// What a person can do about it: the sentence that ends an error's message.
    pub const fn advice(self) -> &'static str {
        match self {
            ErrorKind::Unauthorized => "Check the API key",
            ErrorKind::InsufficientCredits => "Top up the account's credits",
            ErrorKind::RateLimited => "Slow down; the call can be retried later",
            ErrorKind::Maintenance => "The service is under maintenance; retry later",
            ErrorKind::NotFound => "Check the id, path and method",
            ErrorKind::Conflict => "The record already exists; query it instead",
            ErrorKind::Invalid => "Fix the request",
            ErrorKind::Server => "A server error; retry later",
        }
    }
}

/// The `kind` of every error the client reports, in both of its faces: the service's refusals,
/// then the client's own failures. The `.d.ts`'s `ErrorKind` union is generated from `ALL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClientErrorKind {
    /// The service refused, as its code means in the endpoint's table.
    Service(ErrorKind),
    /// A request or option broke a rule; nothing was sent.
    Validation,
    /// No answer: connection refused, DNS, CORS, offline.
    Network,
    /// An attempt or a waiter's deadline ran out of time.
    Timeout,
    /// The caller's AbortSignal fired.
    Aborted,
    /// A task reached a failure state.
    TaskFailed,
    /// The client's own options are unusable.
    Configuration,
    /// The package's module stopped after an internal error (a panic, a bug); only the JavaScript
    /// face reports it, since a Rust caller's panic is its own.
    Internal,
}

impl ClientErrorKind {
    /// Every kind: the service's, in `ErrorKind::ALL` order, then the client's own.
    // Evaluated by the compiler: an index out of bounds fails the build, not a call.
    #[allow(clippy::indexing_slicing)]
    pub const ALL: [ClientErrorKind; ErrorKind::ALL.len() + 7] = {
        let own = [
            ClientErrorKind::Validation,
            ClientErrorKind::Network,
            ClientErrorKind::Timeout,
            ClientErrorKind::Aborted,
            ClientErrorKind::TaskFailed,
            ClientErrorKind::Configuration,
            ClientErrorKind::Internal,
        ];
        let mut all = [ClientErrorKind::Validation; ErrorKind::ALL.len() + 7];
        let mut i = 0;
        while i < ErrorKind::ALL.len() {
            all[i] = ClientErrorKind::Service(ErrorKind::ALL[i]);
            i += 1;
        }
        while i < all.len() {
            all[i] = own[i - ErrorKind::ALL.len()];
            i += 1;
        }
        all
    };

    /// The string of `error.kind`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ClientErrorKind::Service(kind) => kind.as_str(),
            ClientErrorKind::Validation => "validation",
            ClientErrorKind::Network => "network",
            ClientErrorKind::Timeout => "timeout",
            ClientErrorKind::Aborted => "aborted",
            ClientErrorKind::TaskFailed => "task_failed",
            ClientErrorKind::Configuration => "configuration",
            ClientErrorKind::Internal => "internal",
        }
    }

    /// What the kind means, for the `.d.ts`.
    pub const fn meaning(self) -> &'static str {
        use ErrorKind::*;
        crate::docs(match self {
            ClientErrorKind::Service(kind) => match kind {
                Unauthorized => "the API key was refused (401)",
                InsufficientCredits => "the account has too few credits (music 429, cover and mashup 402)",
                RateLimited => "too many requests (music 405 and 430, cover and mashup 429)",
                Maintenance => "the service is under maintenance (455)",
                NotFound => "no such id, path or method (404)",
                Conflict => "the record already exists (409)",
                Invalid => "the service refused the request's parameters (400, 413, 422)",
                Server => "a server error (500 and unknown codes)",
            },
            ClientErrorKind::Validation => "a request or option broke a rule; nothing was sent",
            ClientErrorKind::Network => "no answer: connection refused, DNS, CORS, offline",
            ClientErrorKind::Timeout => "an attempt or a waiter's deadline ran out of time",
            ClientErrorKind::Aborted => "the caller's AbortSignal fired",
            ClientErrorKind::TaskFailed => "a task reached a failure state",
            ClientErrorKind::Configuration => "the client's own options are unusable",
            ClientErrorKind::Internal => {
                "the package's module stopped after an internal error (a bug); reload to use it again"
            }
        })
    }
}

/// Envelope code of success in every table.
pub const OK: i64 = 200;

/// Maps an envelope code to its kind in a table; `None` means success (200).
/// Unknown codes are classed by their hundreds so that nothing is ever unmapped.
pub fn classify(table: CodeTable, code: i64) -> Option<ErrorKind> {
    use ErrorKind::*;
    if code == OK {
        return None;
    }
    let known = match (table, code) {
        (_, 401) => Some(Unauthorized),
        (_, 404) => Some(NotFound),
        (_, 409) => Some(Conflict),
        (_, 455) => Some(Maintenance),
        (CodeTable::Music, 400 | 413) => Some(Invalid),
        (CodeTable::Music, 405 | 430) => Some(RateLimited),
        (CodeTable::Music, 429) => Some(InsufficientCredits),
        (CodeTable::Cover | CodeTable::Mashup, 400 | 422) => Some(Invalid),
        (CodeTable::Cover | CodeTable::Mashup, 402) => Some(InsufficientCredits),
        // 405 and 430 are rate limits elsewhere on the service; read them so here too.
        (CodeTable::Cover | CodeTable::Mashup, 429 | 405 | 430) => Some(RateLimited),
        (CodeTable::Upload, 400 | 413 | 422) => Some(Invalid),
        (CodeTable::Upload, 402) => Some(InsufficientCredits),
        (CodeTable::Upload, 405) => Some(NotFound),
        (CodeTable::Upload, 429 | 430) => Some(RateLimited),
        _ => None,
    };
    Some(known.unwrap_or(if !(100..500).contains(&code) {
        Server
    } else {
        Invalid
    }))
}

/// The documented meaning of a code in a table, for messages; generic text for unknown codes.
pub fn meaning(table: CodeTable, code: i64) -> &'static str {
    match (table, code) {
        (_, 200) => "Success",
        (CodeTable::Music, 400) => "Invalid parameters",
        (CodeTable::Cover, 400) => "Format error: parameters not valid JSON",
        (_, 401) => "Unauthorized: credentials missing or invalid",
        (CodeTable::Cover | CodeTable::Mashup, 402) => "Insufficient credits",
        (CodeTable::Music, 404) => "Invalid request method or path",
        (_, 404) => "Resource or endpoint does not exist",
        (CodeTable::Music, 405) => "Rate limit exceeded",
        (_, 409) => "Conflict: record already exists",
        (CodeTable::Music, 413) => "Theme or prompt too long",
        (_, 422) => "Validation error",
        (CodeTable::Music, 429) => "Insufficient credits",
        (_, 429) => "Rate limit exceeded",
        (_, 430) => "Call frequency too high, retry later",
        (_, 451) => "Source files could not be downloaded",
        (_, 455) => "System maintenance",
        (_, 500) => "Server error",
        _ => "Unexpected response code",
    }
}

/// A refusal of the companion server (`tunesmith/server`), which names its cause in the answer's
/// `error` (`{code, msg, error}`; the service's own envelopes have no such field): the kind and the
/// advice for it. The word decides where the status would mislead (the companion's 429 is a rate
/// limit, where the music table's is "insufficient credits"); other words go by the HTTP status.
pub fn companion(error: &str, status: u16) -> (ErrorKind, &'static str) {
    use ErrorKind::*;
    match error {
        "rate_limited" | "too_many_requests" | "too_many_tasks" | "too_many_streams" | "busy" => {
            (RateLimited, RateLimited.advice())
        }
        "unauthorized" => (
            Unauthorized,
            "Sign in again: the companion did not accept the session",
        ),
        "operation_not_allowed" => (Invalid, "Add it to the companion's `allow` option"),
        "not_found" => (
            NotFound,
            "Check the id: the companion knows no such task of this user",
        ),
        _ => {
            let kind = classify(CodeTable::Upload, i64::from(status)).unwrap_or(Server);
            (kind, kind.advice())
        }
    }
}

/// The code a table uses for `kind` (the emulator answers with it).
pub const fn code_for(table: CodeTable, kind: ErrorKind) -> i64 {
    use ErrorKind::*;
    match (table, kind) {
        (_, Unauthorized) => 401,
        (CodeTable::Music, InsufficientCredits) => 429,
        (_, InsufficientCredits) => 402,
        (CodeTable::Music, RateLimited) => 430,
        (_, RateLimited) => 429,
        (_, Maintenance) => 455,
        (_, NotFound) => 404,
        (_, Conflict) => 409,
        (CodeTable::Cover | CodeTable::Mashup, Invalid) => 422,
        (_, Invalid) => 400,
        (_, Server) => 500,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_table_meanings_differ_as_documented() {
        assert_eq!(
            classify(CodeTable::Music, 429),
            Some(ErrorKind::InsufficientCredits)
        );
        assert_eq!(
            classify(CodeTable::Cover, 429),
            Some(ErrorKind::RateLimited)
        );
        assert_eq!(
            classify(CodeTable::Music, 405),
            Some(ErrorKind::RateLimited)
        );
        assert_eq!(
            classify(CodeTable::Music, 430),
            Some(ErrorKind::RateLimited)
        );
        assert_eq!(
            classify(CodeTable::Cover, 402),
            Some(ErrorKind::InsufficientCredits)
        );
        assert_eq!(classify(CodeTable::Cover, 422), Some(ErrorKind::Invalid));
        assert_eq!(classify(CodeTable::Music, 413), Some(ErrorKind::Invalid));
        assert_eq!(
            classify(CodeTable::Music, 455),
            Some(ErrorKind::Maintenance)
        );
        assert_eq!(classify(CodeTable::Music, 200), None);
        // Mashup's own table (V6): the reverse of the music table's 429.
        assert_eq!(
            classify(CodeTable::Mashup, 402),
            Some(ErrorKind::InsufficientCredits)
        );
        assert_eq!(
            classify(CodeTable::Mashup, 429),
            Some(ErrorKind::RateLimited)
        );
        assert_eq!(classify(CodeTable::Mashup, 422), Some(ErrorKind::Invalid));
        assert_eq!(classify(CodeTable::Mashup, 451), Some(ErrorKind::Invalid));
        assert_eq!(
            crate::Op::Mashup.endpoint().codes,
            CodeTable::Mashup,
            "mashup answers in its own table"
        );
        assert_eq!(classify(CodeTable::Music, 503), Some(ErrorKind::Server));
        assert_eq!(classify(CodeTable::Music, 418), Some(ErrorKind::Invalid));
    }

    #[test]
    fn companion_refusals_read_their_word_before_their_status() {
        assert_eq!(companion("too_many_tasks", 429).0, ErrorKind::RateLimited);
        assert_eq!(companion("rate_limited", 429).0, ErrorKind::RateLimited);
        assert_eq!(companion("unauthorized", 401).0, ErrorKind::Unauthorized);
        assert!(companion("operation_not_allowed", 403)
            .1
            .contains("`allow`"));
        assert_eq!(companion("not_found", 404).0, ErrorKind::NotFound);
        assert_eq!(companion("validation", 400).0, ErrorKind::Invalid);
        assert_eq!(companion("service_unreachable", 502).0, ErrorKind::Server);
    }

    #[test]
    fn code_for_round_trips_through_classify() {
        use ErrorKind::*;
        for table in [
            CodeTable::Music,
            CodeTable::Cover,
            CodeTable::Mashup,
            CodeTable::Upload,
        ] {
            for kind in [
                Unauthorized,
                InsufficientCredits,
                RateLimited,
                Maintenance,
                NotFound,
                Conflict,
                Invalid,
                Server,
            ] {
                assert_eq!(
                    classify(table, code_for(table, kind)),
                    Some(kind),
                    "{table:?} {kind:?}"
                );
            }
        }
    }
}
