//! `pkg-template/operations.generated.js`: every operation as the package's two faces present it
//! (the MCP server's tools, the CLI's subcommands): its name and summary, how the client's method
//! takes its arguments, the task family it starts or reads, and the JSON Schema of its request
//! and of what it resolves with, from the same declarations as the emulator's `/openapi.json`.

use super::{quoted, HEADER};
use serde_json::{json, Value};
use tunesmith_protocol::json_schema;
use tunesmith_protocol::Op;

fn entry(op: Op) -> Value {
    let e = op.endpoint();
    // How the client's method takes its arguments, and the request field an upload method takes
    // first (the rest are its options).
    let (call, first_argument) = match op {
        Op::UploadStream => ("file", None),
        Op::UploadFromUrl => ("url", Some("fileUrl")),
        Op::UploadBase64 => ("base64", Some("base64Data")),
        _ if e.fields.is_empty() => ("none", None),
        _ => ("request", None),
    };
    let created = op.creates();
    let family = created.or(op.queries());
    json!({
        "summary": e.summary,
        "creates": e.creates_task(),
        "family": family.map(|f| f.as_str()),
        "waiter": family.map(|f| f.waiter_name()),
        "query": family.map(|f| f.query().endpoint().name),
        "queryField": family.map(|f| f.query_field()),
        "call": call,
        "callback": e.callback_field(),
        "firstArgument": first_argument,
        "input": open_lists(json_schema::request(op)),
        "output": json_schema::record(op.output()),
        "finalOutput": created.map(|f| json_schema::record(f.query().output())),
    })
}

/// The request's schema as the package's faces take it: an open list (`x-open`, a model) keeps
/// its known values as `examples` rather than an `enum`, since the client passes a newer one on.
fn open_lists(mut schema: Value) -> Value {
    let props = schema.get_mut("properties").and_then(Value::as_object_mut);
    for field in props.into_iter().flat_map(|p| p.values_mut()) {
        let Some(field) = field.as_object_mut() else {
            continue;
        };
        if field.remove("x-open").is_some() {
            if let Some(known) = field.remove("enum") {
                field.insert("examples".into(), known);
            }
        }
    }
    schema
}

pub fn operations() -> String {
    let mut out = HEADER.to_owned();
    out.push_str(
        "// Every operation of the client, as the MCP server (`tunesmith/mcp`) and the CLI present it:\n\
         // `call` says how the method takes its arguments (`request`: one object; `none`; `file`, `url`,\n\
         // `base64`: the upload and its options, `firstArgument` naming the field passed first); `family`,\n\
         // `waiter` and `query` the task it starts or reads; `callback` the field of its callback URL;\n\
         // `input` the JSON Schema of its request (as in `/openapi.json`); `output` what it resolves\n\
         // with, `finalOutput` (creates) the task's final record.\n\
         export const OPERATIONS = [\n",
    );
    for op in Op::ALL {
        // One operation per line, its name first: a diff shows which operation changed.
        let rest = entry(op).to_string();
        out.push_str(&format!(
            "  {{\"name\":\"{}\",{},\n",
            op.endpoint().name,
            &rest[1..]
        ));
    }
    out.push_str(
        "];\n\n// Every `kind` an error of the client can have.\nexport const ERROR_KINDS = [",
    );
    out.push_str(&quoted(tunesmith_protocol::schema::ERROR_KIND.values, ", "));
    out.push_str("];\n");
    out.push_str(&super::media::table());
    out
}
