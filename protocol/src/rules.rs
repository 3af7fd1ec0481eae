//! Declarative field rules and the one validator that checks them, for client and emulator alike.
//! Over 400 lines on purpose: one validator for every kind of rule (text, numbers, URLs, paths,
//! file names, unknown fields), each check beside the rule it reads, so that client and emulator
//! cannot differ.

use crate::num;
use std::fmt;

/// A request field as the validator sees it, whatever holds the request (a JS object, a JSON value).
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    Missing,
    Null,
    Str(std::borrow::Cow<'a, str>),
    Num(f64),
    Bool(bool),
    /// An array, its items read the same way (an item that is itself a list or object is `Other`).
    List(Vec<Value<'a>>),
    /// An object or anything else that is none of the above.
    Other,
}

impl Value<'_> {
    /// Absent fields and explicit nulls both count as "not given".
    pub fn is_absent(&self) -> bool {
        matches!(self, Value::Missing | Value::Null)
    }
}

/// Read access to the fields of a request object.
pub trait Fields {
    fn field(&self, name: &'static str) -> Value<'_>;
}

/// What a field must be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A string of at most `max` characters (Unicode scalar values), if set.
    Text {
        max: Option<usize>,
    },
    /// A string of at most `max_words` whitespace-separated words.
    Words {
        max_words: usize,
    },
    /// An absolute http or https URL.
    Url,
    /// A number in `[min, max]`, a multiple of `step` when set (behind a reference: three `f64`
    /// inline would triple the size of every rule in the table, which the wasm carries).
    Number(&'static Range),
    /// A whole number in `[min, max]`.
    Integer {
        min: i32,
        max: i32,
    },
    /// One of the listed strings.
    OneOf(&'static [&'static str]),
    /// A non-empty string, the listed values being the ones known today: the client passes any
    /// other on (a model released after the package; the service answers for it), the emulator,
    /// which plays the service, refuses it ([`check_listed`]).
    Open(&'static [&'static str]),
    Bool,
    /// A relative directory path that stays inside its root (no `..`, no absolute path).
    DirPath,
    /// One file name: no separators, not `.` or `..`.
    FileName,
    /// An array of `min` to `max` absolute http or https URLs.
    UrlList {
        min: usize,
        max: usize,
    },
}

/// The most items any list field may declare (`Kind::UrlList`'s `max`): a reader may refuse a
/// longer array before walking it (an array's length is its sender's to choose, up to 2³² − 1).
pub const MAX_LIST_ITEMS: usize = 1000;

/// The bounds of a number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    pub min: f64,
    pub max: f64,
    pub step: Option<f64>,
}

/// One field of a request: its name, whether it is required, what it must be, and (with the
/// `docs` feature) its documentation. Kept small: the wasm carries one per field of the table.
#[derive(Clone, Copy, Debug)]
pub struct FieldRule {
    pub name: &'static str,
    pub required: bool,
    pub kind: Kind,
    #[cfg(feature = "docs")]
    pub doc: &'static str,
}

impl FieldRule {
    /// The field's documentation; empty without the `docs` feature.
    pub const fn doc(&self) -> &'static str {
        #[cfg(feature = "docs")]
        return self.doc;
        #[cfg(not(feature = "docs"))]
        ""
    }
}

/// The rule a value broke; its string form is what JavaScript sees in `error.rule`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleKind {
    Required,
    Type,
    MaxLength,
    MaxWords,
    Range,
    Step,
    Integer,
    OneOf,
    Url,
    SafePath,
    NotEmpty,
    MaxSize,
    /// Two fields that depend on each other (for example "taskId or audioId").
    Dependency,
    /// A field the operation does not have: the service would ignore it silently.
    UnknownField,
}

impl RuleKind {
    pub const ALL: [RuleKind; 14] = [
        RuleKind::Required,
        RuleKind::Type,
        RuleKind::MaxLength,
        RuleKind::MaxWords,
        RuleKind::Range,
        RuleKind::Step,
        RuleKind::Integer,
        RuleKind::OneOf,
        RuleKind::Url,
        RuleKind::SafePath,
        RuleKind::NotEmpty,
        RuleKind::MaxSize,
        RuleKind::Dependency,
        RuleKind::UnknownField,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            RuleKind::Required => "required",
            RuleKind::Type => "type",
            RuleKind::MaxLength => "max_length",
            RuleKind::MaxWords => "max_words",
            RuleKind::Range => "range",
            RuleKind::Step => "step",
            RuleKind::Integer => "integer",
            RuleKind::OneOf => "one_of",
            RuleKind::Url => "url",
            RuleKind::SafePath => "safe_path",
            RuleKind::NotEmpty => "not_empty",
            RuleKind::MaxSize => "max_size",
            RuleKind::Dependency => "dependency",
            RuleKind::UnknownField => "unknown_field",
        }
    }

    /// "Too long" rules: the music family answers them with 413 rather than 400.
    pub const fn is_too_long(self) -> bool {
        matches!(
            self,
            RuleKind::MaxLength | RuleKind::MaxWords | RuleKind::MaxSize
        )
    }
}

/// A request that breaks a rule: names the field and the rule, with a sentence for people.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidationError {
    pub field: String,
    pub rule: RuleKind,
    pub message: String,
}

impl ValidationError {
    pub fn new(field: &str, rule: RuleKind, detail: impl AsRef<str>) -> Self {
        ValidationError {
            field: field.to_owned(),
            rule,
            message: crate::text!("`", field, "` ", detail),
        }
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (rule: {})", self.message, self.rule.as_str())
    }
}

impl std::error::Error for ValidationError {}

/// "must be at most {max} {what} (got {got})": a text longer than its field allows.
pub fn too_long(name: &str, rule: RuleKind, max: usize, what: &str, got: usize) -> ValidationError {
    ValidationError::new(
        name,
        rule,
        crate::text!(
            "must be at most ",
            num::int(max as i64),
            " ",
            what,
            " (got ",
            num::int(got as i64),
            ")"
        ),
    )
}

/// Checks every rule in order and reports the first field that breaks one.
pub fn check(rules: &[FieldRule], fields: &(impl Fields + ?Sized)) -> Result<(), ValidationError> {
    for rule in rules {
        check_one(rule, &fields.field(rule.name))?;
    }
    Ok(())
}

/// Refuses a field the operation does not have: the service ignores unknown fields silently, so
/// a typo (`callbackUrl` for `callBackUrl`) would lose the callbacks without a word. The message
/// names the closest known field.
pub fn check_known(rules: &[FieldRule], name: &str) -> Result<(), ValidationError> {
    if rules.iter().any(|r| r.name == name) {
        return Ok(());
    }
    let detail = match closest(rules, name) {
        Some(known) => crate::text!(
            "is not a field of this operation (did you mean `",
            known,
            "`?); send fields the package does not know yet with the `extraFields` option"
        ),
        None => "is not a field of this operation; send fields the package does not know yet with the `extraFields` option".to_owned(),
    };
    Err(ValidationError::new(name, RuleKind::UnknownField, detail))
}

/// The known field nearest to `name`, an unknown one, if it is near enough to be its misspelling.
fn closest(rules: &[FieldRule], name: &str) -> Option<&'static str> {
    nearest(rules.iter().map(|r| r.name), name)
}

/// The name among `known` nearest to `name` (any case), if it is near enough to be its
/// misspelling: shared by the request fields and the client's options.
pub fn nearest(known: impl Iterator<Item = &'static str>, name: &str) -> Option<&'static str> {
    known
        .map(|k| {
            (
                distance(&k.to_ascii_lowercase(), &name.to_ascii_lowercase()),
                k,
            )
        })
        .min_by_key(|(d, _)| *d)
        .filter(|(d, _)| *d <= 2 + name.len() / 4)
        .map(|(_, known)| known)
}

/// `error`, when it says a required field is missing while the request holds a misspelling of it
/// among its `keys` (`callbackUrl` for `callBackUrl`), names that key: the fix is a rename.
pub fn name_near_miss<'a>(
    rules: &[FieldRule],
    error: ValidationError,
    mut keys: impl Iterator<Item = &'a str>,
) -> ValidationError {
    if error.rule != RuleKind::Required {
        return error;
    }
    let near = keys.find(|key| {
        !rules.iter().any(|r| r.name == *key) && closest(rules, key) == Some(error.field.as_str())
    });
    match near {
        Some(key) => ValidationError::new(
            &error.field,
            RuleKind::Required,
            crate::text!(
                "is required; the request has `",
                key,
                "` instead (did you mean `",
                error.field,
                "`?)"
            ),
        ),
        None => error,
    }
}

/// Edit distance (insertions, deletions, substitutions) between two short ASCII-ish names.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = i;
        let mut left = i + 1;
        let mut next = Vec::with_capacity(row.len());
        next.push(left);
        for (j, cb) in b.iter().enumerate() {
            let up = row.get(j + 1).copied().unwrap_or(usize::MAX - 1);
            let cost = diagonal + usize::from(ca != *cb);
            left = cost.min(up + 1).min(left + 1);
            diagonal = up;
            next.push(left);
        }
        row = next;
    }
    row.last().copied().unwrap_or(0)
}

/// What the service checks beyond the client: a value of an open list (`Kind::Open`) that is not
/// one of its known values is refused as `OneOf` would refuse it. The emulator's, after the rules.
pub fn check_listed(
    rules: &[FieldRule],
    fields: &(impl Fields + ?Sized),
) -> Result<(), ValidationError> {
    for rule in rules {
        if let Kind::Open(known) = rule.kind {
            let closed = FieldRule {
                kind: Kind::OneOf(known),
                ..*rule
            };
            check_one(&closed, &fields.field(rule.name))?;
        }
    }
    Ok(())
}

/// Checks one value against one rule.
pub fn check_one(rule: &FieldRule, value: &Value<'_>) -> Result<(), ValidationError> {
    let name = rule.name;
    if value.is_absent() {
        return if rule.required {
            Err(ValidationError::new(
                name,
                RuleKind::Required,
                "is required",
            ))
        } else {
            Ok(())
        };
    }
    match (rule.kind, value) {
        (Kind::Text { max }, Value::Str(s)) => {
            if rule.required && s.trim().is_empty() {
                return Err(ValidationError::new(
                    name,
                    RuleKind::Required,
                    "is required and must not be empty",
                ));
            }
            if let Some(max) = max {
                let len = s.chars().count();
                if len > max {
                    return Err(too_long(name, RuleKind::MaxLength, max, "characters", len));
                }
            }
            Ok(())
        }
        (Kind::Words { max_words }, Value::Str(s)) => {
            if rule.required && s.trim().is_empty() {
                return Err(ValidationError::new(
                    name,
                    RuleKind::Required,
                    "is required and must not be empty",
                ));
            }
            let words = s.split_whitespace().count();
            if words > max_words {
                return Err(too_long(
                    name,
                    RuleKind::MaxWords,
                    max_words,
                    "words",
                    words,
                ));
            }
            Ok(())
        }
        (Kind::Url, Value::Str(s)) => check_url(name, s),
        (Kind::Number(Range { min, max, step }), Value::Num(n)) => {
            check_number(name, *n, *min, *max, *step)
        }
        (Kind::Integer { min, max }, Value::Num(n)) => {
            if n.fract() != 0.0 || !n.is_finite() {
                return Err(ValidationError::new(
                    name,
                    RuleKind::Integer,
                    crate::text!("must be a whole number (got ", num::fmt(*n), ")"),
                ));
            }
            if *n < f64::from(min) || *n > f64::from(max) {
                return Err(ValidationError::new(
                    name,
                    RuleKind::Range,
                    crate::text!(
                        "must be between ",
                        num::int(i64::from(min)),
                        " and ",
                        num::int(i64::from(max)),
                        " (got ",
                        num::fmt(*n),
                        ")"
                    ),
                ));
            }
            Ok(())
        }
        (Kind::OneOf(allowed), Value::Str(s)) => {
            if allowed.contains(&s.as_ref()) {
                Ok(())
            } else {
                // A loop rather than `join`, which is generic and weighs on the wasm.
                let mut list = String::new();
                for (i, v) in allowed.iter().enumerate() {
                    if i > 0 {
                        list.push_str(", ");
                    }
                    list.push_str(v);
                }
                Err(ValidationError::new(
                    name,
                    RuleKind::OneOf,
                    crate::text!("must be one of ", list, " (got \"", s, "\")"),
                ))
            }
        }
        (Kind::Open(_), Value::Str(s)) if s.trim().is_empty() => Err(ValidationError::new(
            name,
            RuleKind::NotEmpty,
            "must not be empty",
        )),
        (Kind::Open(_), Value::Str(_)) | (Kind::Bool, Value::Bool(_)) => Ok(()),
        (Kind::UrlList { min, max }, Value::List(items)) => check_url_list(name, items, min, max),
        (Kind::DirPath, Value::Str(s)) => check_dir_path(name, s),
        (Kind::FileName, Value::Str(s)) => check_file_name(name, s),
        (kind, _) => Err(ValidationError::new(
            name,
            RuleKind::Type,
            crate::text!("must be ", kind_noun(kind)),
        )),
    }
}

/// The JSON type a kind expects, for type errors and generated docs.
pub const fn kind_noun(kind: Kind) -> &'static str {
    match kind {
        Kind::Text { .. } | Kind::Words { .. } | Kind::DirPath | Kind::FileName | Kind::Open(_) => {
            "a string"
        }
        Kind::Url => "a URL string",
        Kind::Number { .. } => "a number",
        Kind::Integer { .. } => "an integer",
        Kind::OneOf(_) => "a string from the listed values",
        Kind::Bool => "a boolean",
        Kind::UrlList { .. } => "an array of URL strings",
    }
}

fn check_url_list(
    name: &str,
    items: &[Value<'_>],
    min: usize,
    max: usize,
) -> Result<(), ValidationError> {
    let n = items.len();
    if n < min || n > max {
        let wanted = if min == max {
            crate::text!("exactly ", num::int(min as i64))
        } else if min == 0 {
            crate::text!("at most ", num::int(max as i64))
        } else {
            crate::text!(num::int(min as i64), " to ", num::int(max as i64))
        };
        return Err(ValidationError::new(
            name,
            RuleKind::Range,
            crate::text!("must list ", wanted, " URLs (got ", num::int(n as i64), ")"),
        ));
    }
    for (i, item) in items.iter().enumerate() {
        let item_name = crate::text!(name, "[", num::int(i as i64), "]");
        match item {
            Value::Str(s) => check_url(&item_name, s)?,
            _ => {
                return Err(ValidationError::new(
                    &item_name,
                    RuleKind::Url,
                    "must be an absolute http or https URL",
                ))
            }
        }
    }
    Ok(())
}

fn check_number(
    name: &str,
    n: f64,
    min: f64,
    max: f64,
    step: Option<f64>,
) -> Result<(), ValidationError> {
    if !n.is_finite() || n < min || n > max {
        return Err(ValidationError::new(
            name,
            RuleKind::Range,
            crate::text!(
                "must be between ",
                num::fmt(min),
                " and ",
                num::fmt(max),
                " (got ",
                num::fmt(n),
                ")"
            ),
        ));
    }
    if let Some(step) = step {
        let steps = n / step;
        // Binary fractions: 0.07 / 0.01 is 7.000000000000001, so compare with a tolerance.
        if (steps - steps.round()).abs() > 1e-6 {
            return Err(ValidationError::new(
                name,
                RuleKind::Step,
                crate::text!(
                    "must be a multiple of ",
                    num::fmt(step),
                    " (got ",
                    num::fmt(n),
                    ")"
                ),
            ));
        }
    }
    Ok(())
}

/// An absolute http(s) URL with a host.
pub fn check_url(name: &str, s: &str) -> Result<(), ValidationError> {
    let lower = s.trim().to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"));
    let host = rest.map(|r| crate::text::before_any(r, b"/?#"));
    match host {
        Some(h)
            if !h.is_empty()
                && !h.chars().any(char::is_whitespace)
                && !s.chars().any(char::is_whitespace) =>
        {
            Ok(())
        }
        _ => Err(ValidationError::new(
            name,
            RuleKind::Url,
            "must be an absolute http or https URL",
        )),
    }
}

fn unsafe_char(c: char) -> bool {
    c == '\\' || c == '\0' || c.is_control()
}

/// A directory path relative to the storage root that cannot climb out of it.
pub fn check_dir_path(name: &str, s: &str) -> Result<(), ValidationError> {
    let bad = s.starts_with('/')
        || s.chars().any(unsafe_char)
        || crate::text::has_any(s, b":")
        || crate::text::parts(s, b'/').any(|seg| seg == ".." || seg == ".")
        || s.len() > 512;
    if bad {
        Err(ValidationError::new(
            name,
            RuleKind::SafePath,
            "must be a relative path without `..`, `.`, backslashes, colons or control characters",
        ))
    } else {
        Ok(())
    }
}

/// A single file name: no directory separators and not a relative step.
pub fn check_file_name(name: &str, s: &str) -> Result<(), ValidationError> {
    let bad = s.is_empty()
        || s == "."
        || s == ".."
        || crate::text::has_any(s, b"/:")
        || s.chars().any(unsafe_char)
        || s.len() > 255;
    if bad {
        Err(ValidationError::new(
            name,
            RuleKind::SafePath,
            "must be one file name (at most 255 bytes) without `/`, `\\`, `:`, control characters, `.` or `..`",
        ))
    } else {
        Ok(())
    }
}

#[cfg(feature = "json")]
impl Fields for serde_json::Map<String, serde_json::Value> {
    fn field(&self, name: &'static str) -> Value<'_> {
        use serde_json::Value as J;
        match self.get(name) {
            None => Value::Missing,
            Some(J::Null) => Value::Null,
            Some(J::String(s)) => Value::Str(std::borrow::Cow::Borrowed(s)),
            Some(J::Number(n)) => n.as_f64().map_or(Value::Other, Value::Num),
            Some(J::Bool(b)) => Value::Bool(*b),
            Some(J::Array(items)) => Value::List(
                items
                    .iter()
                    .map(|item| match item {
                        J::Null => Value::Null,
                        J::String(s) => Value::Str(std::borrow::Cow::Borrowed(s)),
                        J::Number(n) => n.as_f64().map_or(Value::Other, Value::Num),
                        J::Bool(b) => Value::Bool(*b),
                        _ => Value::Other,
                    })
                    .collect(),
            ),
            Some(_) => Value::Other,
        }
    }
}

/// A fixed list of fields, for tests and for multipart forms.
impl Fields for [(&str, Value<'_>)] {
    fn field(&self, name: &'static str) -> Value<'_> {
        self.iter()
            .find(|(k, _)| *k == name)
            .map_or(Value::Missing, |(_, v)| v.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value<'_> {
        Value::Str(v.into())
    }

    const WEIGHT: FieldRule = FieldRule {
        name: "styleWeight",
        required: false,
        kind: Kind::Number(&Range {
            min: 0.0,
            max: 1.0,
            step: Some(0.01),
        }),
        #[cfg(feature = "docs")]
        doc: "",
    };

    #[test]
    fn weights_accept_two_decimals_and_refuse_more() {
        for ok in [0.0, 0.07, 0.29, 0.57, 1.0, 0.5] {
            assert!(check_one(&WEIGHT, &Value::Num(ok)).is_ok(), "{ok}");
        }
        assert_eq!(
            check_one(&WEIGHT, &Value::Num(0.005)).unwrap_err().rule,
            RuleKind::Step
        );
        assert_eq!(
            check_one(&WEIGHT, &Value::Num(1.01)).unwrap_err().rule,
            RuleKind::Range
        );
        assert_eq!(
            check_one(&WEIGHT, &Value::Num(-0.01)).unwrap_err().rule,
            RuleKind::Range
        );
        assert_eq!(
            check_one(&WEIGHT, &s("0.5")).unwrap_err().rule,
            RuleKind::Type
        );
        assert!(check_one(&WEIGHT, &Value::Missing).is_ok());
    }

    #[test]
    fn urls_must_be_http_or_https() {
        assert!(check_url("u", "https://example.com/a.mp3").is_ok());
        assert!(check_url("u", "http://127.0.0.1:8788/x").is_ok());
        for bad in [
            "ftp://x/y",
            "javascript:alert(1)",
            "https://",
            "/relative",
            "http:// spaced.com",
            "file:///etc/passwd",
        ] {
            assert_eq!(
                check_url("u", bad).unwrap_err().rule,
                RuleKind::Url,
                "{bad}"
            );
        }
    }

    #[test]
    fn paths_cannot_escape() {
        assert!(check_dir_path("p", "audio/2025").is_ok());
        assert!(check_dir_path("p", "").is_ok());
        for bad in ["../x", "a/../../b", "/etc", "a\\b", "C:/x", "a/./b", "a\0b"] {
            assert!(check_dir_path("p", bad).is_err(), "{bad}");
        }
        assert!(check_file_name("f", "song.mp3").is_ok());
        for bad in ["", ".", "..", "a/b", "a\\b", "x\ny"] {
            assert!(check_file_name("f", bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn length_counts_characters_not_bytes() {
        let rule = FieldRule {
            name: "title",
            required: true,
            kind: Kind::Text { max: Some(3) },
            #[cfg(feature = "docs")]
            doc: "",
        };
        assert!(check_one(&rule, &s("ééé")).is_ok());
        let err = check_one(&rule, &s("éééé")).unwrap_err();
        assert_eq!(
            (err.field.as_str(), err.rule),
            ("title", RuleKind::MaxLength)
        );
        assert!(err.message.contains("at most 3"));
        assert_eq!(
            check_one(&rule, &Value::Null).unwrap_err().rule,
            RuleKind::Required
        );
        assert_eq!(
            check_one(&rule, &s("  ")).unwrap_err().rule,
            RuleKind::Required
        );
    }
}

#[cfg(test)]
mod known_field_tests {
    use super::*;

    const RULES: &[FieldRule] = &[
        FieldRule {
            name: "callBackUrl",
            required: true,
            kind: Kind::Url,
            #[cfg(feature = "docs")]
            doc: "",
        },
        FieldRule {
            name: "prompt",
            required: false,
            kind: Kind::Text { max: None },
            #[cfg(feature = "docs")]
            doc: "",
        },
    ];

    #[test]
    fn unknown_fields_are_refused_with_the_closest_known_name() {
        assert!(check_known(RULES, "prompt").is_ok());
        let err = check_known(RULES, "callbackUrl").unwrap_err();
        assert_eq!(
            (err.field.as_str(), err.rule),
            ("callbackUrl", RuleKind::UnknownField)
        );
        assert!(
            err.message.contains("did you mean `callBackUrl`?"),
            "{}",
            err.message
        );
        assert!(check_known(RULES, "promt")
            .unwrap_err()
            .message
            .contains("`prompt`"));
        let missing = ValidationError::new("callBackUrl", RuleKind::Required, "is required");
        let named = name_near_miss(RULES, missing, ["prompt", "callbackUrl"].into_iter());
        assert_eq!(
            (named.field.as_str(), named.rule),
            ("callBackUrl", RuleKind::Required)
        );
        assert!(
            named
                .message
                .contains("has `callbackUrl` instead (did you mean `callBackUrl`?)"),
            "{}",
            named.message
        );
        let missing = ValidationError::new("callBackUrl", RuleKind::Required, "is required");
        let alone = name_near_miss(RULES, missing, ["prompt", "temperature"].into_iter());
        assert_eq!(alone.message, "`callBackUrl` is required");
        let far = check_known(RULES, "temperature").unwrap_err();
        assert!(!far.message.contains("did you mean"), "{}", far.message);
        assert!(far.message.contains("extraFields"));
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
    }
}
