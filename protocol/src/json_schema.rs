//! JSON Schema of the declarations: each request field's rule, each operation's request, and each
//! record as the client returns it. One source for the emulator's `/openapi.json` and the
//! generated operation table of the package (the MCP server's tool schemas, the CLI's options).

use crate::rules::{FieldRule, Kind, Range};
use crate::schema::{snake_case, Origin, Record, Ty};
use crate::Op;
use serde_json::{json, Map, Value};

/// Sets `key` on a schema object (every schema built here is one; `Value`'s index would panic on
/// anything else, hence no indexing).
fn set(s: &mut Value, key: &str, value: Value) {
    if let Some(object) = s.as_object_mut() {
        object.insert(key.to_owned(), value);
    }
}

/// The schema of one request field, with its rule in words as the description.
pub fn field(rule: &FieldRule) -> Value {
    let mut s = match rule.kind {
        Kind::Text { max } => {
            let mut s = json!({"type": "string"});
            if let Some(max) = max {
                set(&mut s, "maxLength", json!(max));
            }
            s
        }
        Kind::Words { max_words } => json!({"type": "string", "x-maxWords": max_words}),
        Kind::Url => json!({"type": "string", "format": "uri", "pattern": "^https?://"}),
        Kind::Number(Range { min, max, step }) => {
            let mut s = json!({"type": "number", "minimum": min, "maximum": max});
            if let Some(step) = step {
                set(&mut s, "multipleOf", json!(step));
            }
            s
        }
        Kind::Integer { min, max } => json!({"type": "integer", "minimum": min, "maximum": max}),
        Kind::OneOf(values) => json!({"type": "string", "enum": values}),
        // The emulator refuses other values, as the service documents; `x-open` tells the
        // package's own faces (MCP, CLI), which pass a newer value on, to drop the `enum`.
        Kind::Open(values) => {
            json!({"type": "string", "minLength": 1, "enum": values, "x-open": true})
        }
        Kind::Bool => json!({"type": "boolean"}),
        Kind::UrlList { min, max } => json!({
            "type": "array",
            "items": {"type": "string", "format": "uri", "pattern": "^https?://"},
            "minItems": min,
            "maxItems": max,
        }),
        Kind::DirPath => json!({"type": "string", "x-rule": "relative path without `..`"}),
        Kind::FileName => json!({"type": "string", "x-rule": "one file name without separators"}),
    };
    set(&mut s, "description", json!(rule.doc()));
    s
}

/// The request of `op` as one object: its body fields, or its query parameters.
pub fn request(op: Op) -> Value {
    let e = op.endpoint();
    let props: Map<String, Value> = e
        .fields
        .iter()
        .map(|f| (f.name.to_owned(), field(f)))
        .collect();
    let required: Vec<&str> = e
        .fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.name)
        .collect();
    json!({"type": "object", "properties": props, "required": required})
}

/// A record as the client returns it. Objects stay open to fields a later service adds (the
/// suites' strict check is `schema::check`); everything declared is typed and required as declared.
pub fn record(r: &Record) -> Value {
    object(r, false)
}

fn object(r: &Record, twin: bool) -> Value {
    let keep = r.twin.map_or(&[][..], |t| t.keep);
    let mut props = Map::new();
    let mut required = Vec::new();
    for f in r.all_fields() {
        if twin && f.origin != Origin::Wire {
            continue;
        }
        let name = if twin && !keep.contains(&f.name) {
            snake_case(f.name)
        } else {
            f.name.to_owned()
        };
        let mut s = ty(&f.ty);
        if !f.doc.is_empty() {
            set(&mut s, "description", json!(f.doc));
        }
        if !f.optional {
            required.push(json!(name));
        }
        props.insert(name, s);
    }
    let mut s = json!({"type": "object", "properties": props, "required": required});
    if !r.doc.is_empty() && !twin {
        set(&mut s, "description", json!(r.doc));
    }
    s
}

fn ty(t: &Ty) -> Value {
    match t {
        Ty::Str | Ty::Time => json!({"type": "string"}),
        Ty::Epoch => json!({"type": ["string", "integer"]}),
        Ty::Num => json!({"type": "number"}),
        Ty::Int | Ty::Size => json!({"type": "integer"}),
        Ty::Bool => json!({"type": "boolean"}),
        Ty::Lit(s) => json!({"type": "string", "const": s}),
        Ty::Enum(v) => json!({"type": "string", "enum": v.values}),
        Ty::Ref(r) => object(r, false),
        Ty::Twin(r) => object(r, true),
        Ty::Union(u) => {
            json!({"type": "object", "anyOf": u.members.iter().map(|m| object(m, false)).collect::<Vec<_>>()})
        }
        Ty::List(item) => json!({"type": "array", "items": ty(item)}),
        Ty::Null(inner) => json!({"anyOf": [ty(inner), {"type": "null"}]}),
        Ty::Unknown => json!({}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{check, MUSIC_TASK, RECORDS};

    #[test]
    fn every_record_yields_an_object_schema_listing_its_required_fields() {
        for r in RECORDS {
            let s = record(r);
            assert_eq!(s["type"], "object", "{}", r.name);
            for f in r.all_fields().iter().filter(|f| !f.optional) {
                assert!(
                    s["required"].as_array().unwrap().contains(&json!(f.name)),
                    "{}.{}",
                    r.name,
                    f.name
                );
            }
        }
    }

    #[test]
    fn a_nullable_field_takes_null_and_its_type() {
        let s = record(&MUSIC_TASK);
        let code = &s["properties"]["errorCode"]["anyOf"];
        assert_eq!(code[0]["type"], "integer");
        assert_eq!(code[1]["type"], "null");
        // The declarations accept a null errorCode too.
        let task = json!({"errorCode": null});
        assert!(check(
            &task["errorCode"],
            &MUSIC_TASK.field("errorCode").unwrap().ty
        )
        .is_ok());
    }

    #[test]
    fn a_request_lists_its_required_fields() {
        let s = request(Op::GetTask);
        assert_eq!(s["required"], json!(["taskId"]));
        assert_eq!(s["properties"]["taskId"]["type"], "string");
    }
}
