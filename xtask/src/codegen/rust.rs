//! Writes `protocol/src/wire/generated.rs`: the serde structs of every wire record and request.

use super::{header, rust_ident};
use tunesmith_protocol::endpoints::{Endpoint, Op};
use tunesmith_protocol::rules::{FieldRule, Kind};
use tunesmith_protocol::schema::{snake_case, Origin, Record, Ty, RECORDS};

pub fn wire() -> String {
    let mut out = header("//");
    out.push_str("//! Wire structs of every record, answer and request: generated from `schema/` and the endpoint table.\n\n");
    out.push_str("#![allow(clippy::all)]\n\nuse serde::{Deserialize, Serialize};\n");
    for record in RECORDS {
        if let Some(rust) = record.rust {
            out.push_str(&record_struct(record, rust, None));
            if let Some(twin) = record.twin {
                out.push_str(&record_struct(record, twin.rust, Some(twin.keep)));
                out.push_str(&format!(
                    "\nimpl From<&{rust}> for {twin} {{\n    fn from(v: &{rust}) -> Self {{\n        let v = v.clone();\n        {twin} {{\n",
                    twin = twin.rust
                ));
                for f in record.fields.iter().filter(|f| f.origin == Origin::Wire) {
                    let id = field_ident(f.name, f.rust);
                    out.push_str(&format!("            {id}: v.{id},\n"));
                }
                out.push_str("        }\n    }\n}\n");
            }
        }
    }
    let mut seen: Vec<&str> = Vec::new();
    for op in Op::ALL {
        let e = op.endpoint();
        let Some(name) = op.request_type() else {
            continue;
        };
        if seen.contains(&name) {
            continue;
        }
        seen.push(name);
        out.push_str(&request_struct(e, name));
    }
    out
}

fn field_ident(name: &str, rust: Option<&str>) -> String {
    rust_ident(&rust.map(str::to_owned).unwrap_or_else(|| snake_case(name)))
}

fn doc_lines(out: &mut String, indent: &str, doc: &str) {
    for line in doc.lines().filter(|l| !l.is_empty()) {
        out.push_str(&format!("{indent}/// {line}\n"));
    }
}

fn record_struct(record: &Record, rust: &str, snake_keep: Option<&[&str]>) -> String {
    let mut out = String::from("\n");
    doc_lines(&mut out, "", record.doc);
    if snake_keep.is_some() {
        out.push_str("/// The snake_case twin, as callbacks write it.\n");
    }
    // A record of nothing but nullable fields (the stems) has an obvious empty value.
    let all_null = record
        .fields
        .iter()
        .filter(|f| f.origin == Origin::Wire)
        .all(|f| f.optional || matches!(f.ty, Ty::Null(_)));
    let default = if all_null { "Default, " } else { "" };
    out.push_str(&format!(
        "#[derive(Clone, Debug, {default}PartialEq, Serialize, Deserialize)]\n"
    ));
    out.push_str(&format!("pub struct {rust} {{\n"));
    for f in record.fields.iter().filter(|f| f.origin == Origin::Wire) {
        let id = field_ident(f.name, f.rust);
        let json = match snake_keep {
            Some(keep) if !keep.contains(&f.name) => snake_case(f.name),
            _ => f.name.to_owned(),
        };
        doc_lines(&mut out, "    ", f.doc);
        if id.trim_start_matches("r#") != json {
            out.push_str(&format!("    #[serde(rename = \"{json}\")]\n"));
        }
        let mut ty = rust_type(&f.ty);
        if f.optional {
            out.push_str("    #[serde(default, skip_serializing_if = \"Option::is_none\")]\n");
            ty = format!("Option<{ty}>");
        }
        out.push_str(&format!("    pub {id}: {ty},\n"));
    }
    out.push_str("}\n");
    out
}

fn rust_type(ty: &Ty) -> String {
    match ty {
        Ty::Str | Ty::Time | Ty::Lit(_) | Ty::Enum(_) => "String".into(),
        Ty::Num => "f64".into(),
        Ty::Int | Ty::Epoch => "i64".into(),
        Ty::Size => "u64".into(),
        Ty::Bool => "bool".into(),
        Ty::Ref(r) => r.rust.unwrap_or(r.name).into(),
        Ty::Twin(r) => r.twin.map_or(r.name, |t| t.rust).into(),
        Ty::Union(u) => u.name.into(),
        Ty::List(t) => format!("Vec<{}>", rust_type(t)),
        Ty::Null(t) => format!("Option<{}>", rust_type(t)),
        Ty::Unknown => "()".into(),
    }
}

fn request_struct(e: &Endpoint, name: &str) -> String {
    let mut out = String::from("\n");
    doc_lines(&mut out, "", e.summary);
    out.push_str("#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]\n");
    out.push_str(&format!("pub struct {name} {{\n"));
    for f in e.fields {
        out.push_str(&request_field(f));
    }
    out.push_str("}\n");
    out
}

fn request_field(f: &FieldRule) -> String {
    let mut out = String::new();
    doc_lines(&mut out, "    ", f.doc);
    let id = rust_ident(&snake_case(f.name));
    if id.trim_start_matches("r#") != f.name {
        out.push_str(&format!("    #[serde(rename = \"{}\")]\n", f.name));
    }
    let ty = match f.kind {
        Kind::Number { .. } => "f64",
        Kind::Integer { .. } => "i64",
        Kind::Bool => "bool",
        Kind::UrlList { .. } => "Vec<String>",
        _ => "String",
    };
    if f.required {
        out.push_str(&format!("    pub {id}: {ty},\n"));
    } else {
        out.push_str("    #[serde(default, skip_serializing_if = \"Option::is_none\")]\n");
        out.push_str(&format!("    pub {id}: Option<{ty}>,\n"));
    }
    out
}
