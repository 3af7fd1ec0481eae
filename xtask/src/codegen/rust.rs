//! Writes `protocol/src/wire/generated.rs`: the serde structs of every wire record and request.

use super::{request_types, HEADER};
use tunesmith_protocol::rules::Kind;
use tunesmith_protocol::schema::{snake_case, Field, Origin, Record, Ty, RECORDS};

pub fn wire() -> String {
    let mut out = HEADER.to_owned();
    out.push_str("//! Wire structs of every record, answer and request: generated from `schema/` and the endpoint table.\n\n");
    out.push_str("#![allow(clippy::all)]\n\nuse serde::{Deserialize, Serialize};\n");
    for record in RECORDS {
        let Some(rust) = record.rust else {
            continue;
        };
        record_struct(&mut out, record, rust, None);
        if let Some(twin) = record.twin {
            record_struct(&mut out, record, twin.rust, Some(twin.keep));
            out.push_str(&format!(
                "\nimpl From<&{rust}> for {twin} {{\n    fn from(v: &{rust}) -> Self {{\n        let v = v.clone();\n        {twin} {{\n",
                twin = twin.rust
            ));
            for f in wire_fields(record) {
                let id = field_ident(f);
                out.push_str(&format!("            {id}: v.{id},\n"));
            }
            out.push_str("        }\n    }\n}\n");
        }
    }
    for (name, op) in request_types() {
        let e = op.endpoint();
        open_struct(&mut out, e.summary, true, name);
        for f in e.fields {
            let ty = match f.kind {
                Kind::Number { .. } => "f64",
                Kind::Integer { .. } => "i64",
                Kind::Bool => "bool",
                Kind::UrlList { .. } => "Vec<String>",
                _ => "String",
            };
            let id = rust_ident(&snake_case(f.name));
            field(&mut out, f.doc, &id, f.name, ty.into(), !f.required);
        }
        out.push_str("}\n");
    }
    out
}

/// A Rust identifier for a name that may be a keyword.
fn rust_ident(name: &str) -> String {
    match name {
        "type" | "match" | "ref" | "use" | "mod" | "move" | "fn" | "impl" => format!("r#{name}"),
        _ => name.to_owned(),
    }
}

fn wire_fields(record: &Record) -> impl Iterator<Item = &Field> {
    record.fields.iter().filter(|f| f.origin == Origin::Wire)
}

fn field_ident(f: &Field) -> String {
    rust_ident(&f.rust.map_or_else(|| snake_case(f.name), str::to_owned))
}

fn doc_lines(out: &mut String, indent: &str, doc: &str) {
    for line in doc.lines().filter(|l| !l.is_empty()) {
        out.push_str(&format!("{indent}/// {line}\n"));
    }
}

/// A struct's doc comment, its derives (`Default` when `default`) and its opening line.
fn open_struct(out: &mut String, doc: &str, default: bool, name: &str) {
    out.push('\n');
    doc_lines(out, "", doc);
    let default = if default { "Default, " } else { "" };
    out.push_str(&format!(
        "#[derive(Clone, Debug, {default}PartialEq, Serialize, Deserialize)]\npub struct {name} {{\n"
    ));
}

/// A field: its doc, its JSON name when the Rust one differs, and an `Option` that serde may
/// leave out when it is `optional`.
fn field(out: &mut String, doc: &str, id: &str, json: &str, ty: String, optional: bool) {
    doc_lines(out, "    ", doc);
    if id.trim_start_matches("r#") != json {
        out.push_str(&format!("    #[serde(rename = \"{json}\")]\n"));
    }
    if optional {
        out.push_str("    #[serde(default, skip_serializing_if = \"Option::is_none\")]\n");
        out.push_str(&format!("    pub {id}: Option<{ty}>,\n"));
    } else {
        out.push_str(&format!("    pub {id}: {ty},\n"));
    }
}

fn record_struct(out: &mut String, record: &Record, rust: &str, snake_keep: Option<&[&str]>) {
    let mut doc = record.doc.to_owned();
    if snake_keep.is_some() {
        doc.push_str("\nThe snake_case twin, as callbacks write it.");
    }
    // A record of nothing but nullable fields (the stems) has an obvious empty value.
    let all_null = wire_fields(record).all(|f| f.optional || matches!(f.ty, Ty::Null(_)));
    open_struct(out, &doc, all_null, rust);
    for f in wire_fields(record) {
        let json = match snake_keep {
            Some(keep) if !keep.contains(&f.name) => snake_case(f.name),
            _ => f.name.to_owned(),
        };
        field(
            out,
            f.doc,
            &field_ident(f),
            &json,
            rust_type(&f.ty),
            f.optional,
        );
    }
    out.push_str("}\n");
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
