//! Envelope `code` tables: what each code means, per endpoint family.

/// Endpoint families whose envelope codes mean different things (service.md, "Errors").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Generation and the other music endpoints: 429 = insufficient credits, 405/430 = rate limit.
    Music,
    /// Cover images: 402 = insufficient credits, 429 = rate limit, 422 = validation.
    Cover,
    /// The upload host: the HTTP status carries the outcome; the body has `success`, `code`, `msg`.
    Upload,
}

/// What went wrong, independent of the family's numbering.
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

    /// What a person can do about it, for error messages.
    pub const fn advice(self) -> &'static str {
        match self {
            ErrorKind::Unauthorized => "check the API key",
            ErrorKind::InsufficientCredits => "top up the account's credits",
            ErrorKind::RateLimited => "slow down; the call can be retried later",
            ErrorKind::Maintenance => "the service is under maintenance; retry later",
            ErrorKind::NotFound => "check the id, path and method",
            ErrorKind::Conflict => "the record already exists; query it instead",
            ErrorKind::Invalid => "fix the request",
            ErrorKind::Server => "a server error; retry later",
        }
    }
}

/// Envelope code of success on every family.
pub const OK: i64 = 200;

/// Maps an envelope code to its kind for a family; `None` means success (200).
/// Unknown codes are classed by their hundreds so that nothing is ever unmapped.
pub fn classify(family: Family, code: i64) -> Option<ErrorKind> {
    use ErrorKind::*;
    if code == OK {
        return None;
    }
    let known = match (family, code) {
        (_, 401) => Some(Unauthorized),
        (_, 404) => Some(NotFound),
        (_, 409) => Some(Conflict),
        (_, 455) => Some(Maintenance),
        (Family::Music, 400 | 413) => Some(Invalid),
        (Family::Music, 405 | 430) => Some(RateLimited),
        (Family::Music, 429) => Some(InsufficientCredits),
        (Family::Cover, 400 | 422) => Some(Invalid),
        (Family::Cover, 402) => Some(InsufficientCredits),
        // 405 and 430 are rate limits elsewhere on the service; read them so here too.
        (Family::Cover, 429 | 405 | 430) => Some(RateLimited),
        (Family::Upload, 400 | 413 | 422) => Some(Invalid),
        (Family::Upload, 402) => Some(InsufficientCredits),
        (Family::Upload, 405) => Some(NotFound),
        (Family::Upload, 429 | 430) => Some(RateLimited),
        _ => None,
    };
    Some(known.unwrap_or(if !(100..500).contains(&code) {
        Server
    } else {
        Invalid
    }))
}

/// The documented meaning of a code in a family, for messages; generic text for unknown codes.
pub fn meaning(family: Family, code: i64) -> &'static str {
    match (family, code) {
        (_, 200) => "Success",
        (Family::Music, 400) => "Invalid parameters",
        (Family::Cover, 400) => "Format error: parameters not valid JSON",
        (_, 401) => "Unauthorized: credentials missing or invalid",
        (Family::Cover, 402) => "Insufficient credits",
        (Family::Music, 404) => "Invalid request method or path",
        (_, 404) => "Resource or endpoint does not exist",
        (Family::Music, 405) => "Rate limit exceeded",
        (_, 409) => "Conflict: record already exists",
        (Family::Music, 413) => "Theme or prompt too long",
        (_, 422) => "Validation error",
        (Family::Music, 429) => "Insufficient credits",
        (_, 429) => "Rate limit exceeded",
        (_, 430) => "Call frequency too high, retry later",
        (_, 455) => "System maintenance",
        (_, 500) => "Server error",
        _ => "Unexpected response code",
    }
}

/// The code a family uses for `kind` (the emulator answers with it).
pub const fn code_for(family: Family, kind: ErrorKind) -> i64 {
    use ErrorKind::*;
    match (family, kind) {
        (_, Unauthorized) => 401,
        (Family::Music, InsufficientCredits) => 429,
        (_, InsufficientCredits) => 402,
        (Family::Music, RateLimited) => 430,
        (_, RateLimited) => 429,
        (_, Maintenance) => 455,
        (_, NotFound) => 404,
        (_, Conflict) => 409,
        (Family::Cover, Invalid) => 422,
        (_, Invalid) => 400,
        (_, Server) => 500,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_family_meanings_differ_as_documented() {
        assert_eq!(
            classify(Family::Music, 429),
            Some(ErrorKind::InsufficientCredits)
        );
        assert_eq!(classify(Family::Cover, 429), Some(ErrorKind::RateLimited));
        assert_eq!(classify(Family::Music, 405), Some(ErrorKind::RateLimited));
        assert_eq!(classify(Family::Music, 430), Some(ErrorKind::RateLimited));
        assert_eq!(
            classify(Family::Cover, 402),
            Some(ErrorKind::InsufficientCredits)
        );
        assert_eq!(classify(Family::Cover, 422), Some(ErrorKind::Invalid));
        assert_eq!(classify(Family::Music, 413), Some(ErrorKind::Invalid));
        assert_eq!(classify(Family::Music, 455), Some(ErrorKind::Maintenance));
        assert_eq!(classify(Family::Music, 200), None);
        assert_eq!(classify(Family::Music, 503), Some(ErrorKind::Server));
        assert_eq!(classify(Family::Music, 418), Some(ErrorKind::Invalid));
    }

    #[test]
    fn code_for_round_trips_through_classify() {
        use ErrorKind::*;
        for family in [Family::Music, Family::Cover, Family::Upload] {
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
                    classify(family, code_for(family, kind)),
                    Some(kind),
                    "{family:?} {kind:?}"
                );
            }
        }
    }
}
