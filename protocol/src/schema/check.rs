//! Holds a value (a JS value in the wasm suites, a JSON value natively) against a declared type.
//!
//! Strict on purpose: a field the declaration does not list is a mismatch too, so that what the
//! emulator returns and what the TypeScript declares cannot drift apart in either direction.

use super::shape::{snake_case, Field, Origin, Record, Ty, Union};
use std::fmt;

/// What a value is, as far as the declarations care.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Null,
    Str(String),
    Num(f64),
    Bool(bool),
    List,
    Object,
    /// A function, a symbol, a bigint...
    Other,
}

/// Read access to a value of any host: `get` is `None` for an absent key (`undefined`).
pub trait Inspect: Sized {
    fn shape(&self) -> Shape;
    fn keys(&self) -> Vec<String>;
    fn get(&self, key: &str) -> Option<Self>;
    fn items(&self) -> Vec<Self>;
}

/// Where a value disagrees with its declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// `MusicTask.tracks[0].duration`.
    pub path: String,
    pub problem: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.problem)
    }
}

/// Checks `value` against `ty`; the first disagreement is returned.
pub fn check<V: Inspect>(value: &V, ty: &Ty) -> Result<(), Mismatch> {
    check_at(value, ty, &root_name(ty))
}

fn root_name(ty: &Ty) -> String {
    match ty {
        Ty::Ref(r) => r.name.to_owned(),
        Ty::Union(u) => u.name.to_owned(),
        _ => "value".to_owned(),
    }
}

fn bad<T>(path: &str, problem: String) -> Result<T, Mismatch> {
    Err(Mismatch {
        path: path.to_owned(),
        problem,
    })
}

fn describe(shape: &Shape) -> String {
    match shape {
        Shape::Null => "null".into(),
        Shape::Str(s) => format!("the string {s:?}"),
        Shape::Num(n) => format!("the number {n}"),
        Shape::Bool(b) => format!("{b}"),
        Shape::List => "an array".into(),
        Shape::Object => "an object".into(),
        Shape::Other => "a non-JSON value".into(),
    }
}

fn check_at<V: Inspect>(value: &V, ty: &Ty, path: &str) -> Result<(), Mismatch> {
    let shape = value.shape();
    let ok = match (ty, &shape) {
        (Ty::Unknown, _) => true,
        (Ty::Null(_), Shape::Null) => true,
        (Ty::Null(inner), _) => return check_at(value, inner, path),
        (Ty::Str | Ty::Time | Ty::Epoch, Shape::Str(_)) => true,
        (Ty::Epoch, Shape::Num(n)) => n.is_finite() && n.fract() == 0.0,
        (Ty::Num, Shape::Num(n)) => n.is_finite(),
        (Ty::Int | Ty::Size, Shape::Num(n)) => n.is_finite() && n.fract() == 0.0,
        (Ty::Bool, Shape::Bool(_)) => true,
        (Ty::Lit(want), Shape::Str(s)) => s == want,
        (Ty::Enum(vocab), Shape::Str(s)) => vocab.contains(s),
        (Ty::List(item), Shape::List) => {
            for (i, v) in value.items().iter().enumerate() {
                check_at(v, item, &format!("{path}[{i}]"))?;
            }
            true
        }
        (Ty::Ref(record), Shape::Object) => return check_record(value, record, path, false),
        (Ty::Twin(record), Shape::Object) => return check_record(value, record, path, true),
        (Ty::Union(union), Shape::Object) => return check_union(value, union, path),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        bad(
            path,
            format!("expected {}, found {}", expected(ty), describe(&shape)),
        )
    }
}

/// The declared type in words, for mismatch reports.
pub fn expected(ty: &Ty) -> String {
    match ty {
        Ty::Str => "a string".into(),
        Ty::Time => "a time string".into(),
        Ty::Epoch => "a time (string or epoch milliseconds)".into(),
        Ty::Num => "a finite number".into(),
        Ty::Int | Ty::Size => "a whole number".into(),
        Ty::Bool => "a boolean".into(),
        Ty::Lit(s) => format!("the string {s:?}"),
        Ty::Enum(v) => format!("a {} value", v.name),
        Ty::Ref(r) | Ty::Twin(r) => format!("a {} object", r.name),
        Ty::Union(u) => format!("a {} object", u.name),
        Ty::List(t) => format!("an array of {}", expected(t)),
        Ty::Null(t) => format!("{} or null", expected(t)),
        Ty::Unknown => "anything".into(),
    }
}

fn check_record<V: Inspect>(
    value: &V,
    record: &Record,
    path: &str,
    twin: bool,
) -> Result<(), Mismatch> {
    let keep = record.twin.map_or(&[][..], |t| t.keep);
    let fields: Vec<(String, &Field)> = record
        .all_fields()
        .into_iter()
        .filter(|f| !twin || f.origin == Origin::Wire)
        .map(|f| {
            let name = if twin && !keep.contains(&f.name) {
                snake_case(f.name)
            } else {
                f.name.to_owned()
            };
            (name, f)
        })
        .collect();
    for (name, f) in &fields {
        let at = format!("{path}.{name}");
        match value.get(name) {
            Some(v) => check_at(&v, &f.ty, &at)?,
            None if f.optional => {}
            None => return bad(&at, format!("missing (declared {})", expected(&f.ty))),
        }
    }
    for key in value.keys() {
        if !fields.iter().any(|(name, _)| *name == key) {
            return bad(
                &format!("{path}.{key}"),
                format!("not declared in {}", record.name),
            );
        }
    }
    Ok(())
}

fn check_union<V: Inspect>(value: &V, union: &Union, path: &str) -> Result<(), Mismatch> {
    let tag = value.get(union.tag).map(|v| v.shape());
    for member in union.members {
        let Some(field) = member.field(union.tag) else {
            continue;
        };
        if let (Ty::Lit(want), Some(Shape::Str(got))) = (&field.ty, &tag) {
            if want == got {
                return check_record(value, member, &format!("{path}<{}>", member.name), false);
            }
        }
    }
    bad(
        &format!("{path}.{}", union.tag),
        format!(
            "{} matches no member of {}",
            tag.map(|s| describe(&s)).unwrap_or_else(|| "absent".into()),
            union.name
        ),
    )
}

#[cfg(feature = "json")]
impl Inspect for serde_json::Value {
    fn shape(&self) -> Shape {
        use serde_json::Value as J;
        match self {
            J::Null => Shape::Null,
            J::String(s) => Shape::Str(s.clone()),
            J::Number(n) => n.as_f64().map(Shape::Num).unwrap_or(Shape::Other),
            J::Bool(b) => Shape::Bool(*b),
            J::Array(_) => Shape::List,
            J::Object(_) => Shape::Object,
        }
    }

    fn keys(&self) -> Vec<String> {
        self.as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    }

    fn get(&self, key: &str) -> Option<Self> {
        self.as_object().and_then(|o| o.get(key)).cloned()
    }

    fn items(&self) -> Vec<Self> {
        self.as_array().cloned().unwrap_or_default()
    }
}
