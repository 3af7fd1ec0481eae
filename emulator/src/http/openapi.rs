//! `GET /openapi.json`: an OpenAPI 3 document generated from the protocol's endpoint table, so the
//! rules the emulator checks and the rules it documents are one and the same.

use axum::extract::State;
use axum::Json;
use serde_json::{json, Map, Value};
use tunesmith_protocol::codes::meaning;
use tunesmith_protocol::json_schema;
use tunesmith_protocol::{CodeTable, Host, Method, Op};

use crate::app::AppState;
use crate::config::Config;
use crate::core::cost::cost;
use crate::families::references::{self, Reference};

pub async fn serve(State(app): State<AppState>) -> Json<Value> {
    Json(app.openapi.clone())
}

fn codes(table: CodeTable) -> &'static [i64] {
    match table {
        CodeTable::Music => &[200, 400, 401, 404, 405, 409, 413, 429, 430, 455, 500],
        CodeTable::Cover => &[200, 400, 401, 402, 404, 409, 422, 429, 455, 500],
        CodeTable::Mashup => &[200, 401, 402, 404, 409, 422, 429, 451, 455, 500],
        CodeTable::Upload => &[200, 400, 401, 404, 405, 413, 429, 500],
    }
}

/// Codes an operation answers beyond its table's: 451 where it fetches files (generate's
/// references, replace-section's upload), the service's code for files it could not download.
fn extra_codes(op: Op) -> &'static [i64] {
    match op {
        Op::Generate | Op::ReplaceSection => &[451],
        _ => &[],
    }
}

fn code_table(op: Op, table: CodeTable) -> String {
    codes(table)
        .iter()
        .chain(extra_codes(op).iter().filter(|c| !codes(table).contains(c)))
        .map(|c| match *c {
            451 => "451 a file of the request could not be fetched".to_owned(),
            c => format!("{c} {}", meaning(table, c)),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// What generate does with its V6 fields, for the document: the references fetched and checked
/// before anything is charged, the length `duration` gives, the words `lyrics` give.
fn generate_notes() -> Value {
    let list = |kind: Reference| {
        let (min, max) = kind.seconds();
        json!({
            "takes": kind.what(),
            "maxBytes": kind.max_bytes(),
            "minSeconds": min,
            "maxSeconds": max,
        })
    };
    let mut refs = Map::new();
    for (field, kind) in references::FIELDS {
        refs.insert(field.to_owned(), list(kind));
    }
    json!({
        "x-references": {
            "lists": refs,
            "checked": "Each URL is fetched (a file of the upload host, else downloaded under the URL rules of file-url-upload) before anything is charged. Its kind is judged by its first bytes, its length read from a WAV, MP4 or MOV header (other files are given the benefit of the doubt).",
            "refusals": "451 when a file cannot be fetched; 400 (rule: type) for a file of the wrong kind; 413 (rule: max_size) for one too large; 400 (rule: range) for one too short or too long. The message names the list and the item (from 1).",
        },
        // Which fields each mode takes: the others are refused by name (the page hides them). A
        // persona sings in custom mode only, its model only with it.
        "x-customModeOnly": tunesmith_protocol::endpoints::CUSTOM_ONLY
            .iter()
            .chain(&["personaId", "personaModel"])
            .collect::<Vec<_>>(),
        "x-nonCustomModeOnly": tunesmith_protocol::endpoints::NON_CUSTOM_ONLY,
        "x-duration": "Custom mode: both tracks last `duration` seconds (to the tenth), as their records' `duration` and their WAV files say. Without it a track lasts 20 to 40 s.",
        "x-lyrics": "The words sung, as timestamped lyrics return them spread over the track: `lyrics`, else `prompt`.",
    })
}

fn operation(op: Op) -> Value {
    let e = op.endpoint();
    let cost = cost(op, &Map::new());
    let mut o = json!({
        "operationId": e.name,
        "summary": e.summary,
        "security": [{"bearer": []}],
        "x-code-table": format!("{:?}", e.codes).to_ascii_lowercase(),
        "x-createsTask": e.creates_task(),
        "x-credits": cost,
    });
    if e.method == Method::Get {
        o["parameters"] = e
            .fields
            .iter()
            .map(|f| json!({"name": f.name, "in": "query", "required": f.required, "schema": json_schema::field(f)}))
            .collect();
    } else {
        let mut body = json_schema::request(op);
        let media = if op == Op::UploadStream {
            body["properties"]["file"] = json!({"type": "string", "format": "binary"});
            body["required"] = json!(["file"]);
            "multipart/form-data"
        } else {
            "application/json"
        };
        o["requestBody"] = json!({"required": true, "content": {media: {"schema": body}}});
    }
    let description = if e.codes == CodeTable::Upload {
        format!(
            "HTTP status = body code. Body: {{success, code, msg, data?}}. Codes: {}",
            code_table(op, e.codes)
        )
    } else {
        format!(
            "Always HTTP 200: read the body `code`. Body: {{code, msg, data}}. Codes: {}",
            code_table(op, e.codes)
        )
    };
    if op == Op::Generate {
        if let (Some(o), Value::Object(notes)) = (o.as_object_mut(), generate_notes()) {
            o.extend(notes);
        }
    }
    o["responses"] =
        json!({"200": {"description": description, "content": {"application/json": {}}}});
    o
}

/// The whole document, with both hosts' base URLs.
pub fn document(config: &Config, music: &str, upload: &str) -> Value {
    let mut paths = Map::new();
    for op in Op::ALL {
        let e = op.endpoint();
        let path = op.path(&config.service_segment);
        let method = match e.method {
            Method::Get => "get",
            Method::Post => "post",
        };
        let entry = paths.entry(path).or_insert_with(|| json!({}));
        entry[method] = operation(op);
        if e.host == Host::Upload {
            entry["servers"] = json!([{"url": upload, "description": "upload host"}]);
        }
    }
    let admin = |summary: &str| json!({"summary": summary, "tags": ["emulator"], "responses": {"200": {"description": "JSON"}}});
    paths.insert("/_emulator/requests".into(), json!({"get": admin("Request log of both hosts' API routes: ?tag=T&since=SEQ → {requests: [{seq, host, method, path, query, op, code, tag, at}]}")}));
    paths.insert(
        "/_emulator/stats".into(),
        json!({"get": admin("?tag=T → {requests, tasksCreated}")}),
    );
    paths.insert("/_emulator/faults".into(), json!({"post": admin("Arm faults: {tag, code?, times?, retryAfterMs?, delayMs?, ops?}; affects the next `times` requests carrying X-Emulator-Tag: tag")}));
    paths.insert(
        "/_emulator/credits".into(),
        json!({"post": admin("Set the credits of the key in Authorization: {credits}")}),
    );
    paths.insert(
        "/_emulator/clock".into(),
        json!({"post": admin("Advance the manual clock: {advanceMs}; 409 without --manual-clock")}),
    );
    paths.insert("/inbox/{name}".into(), json!({
        "post": admin("Callback receiver: records the body; ?status=S&times=N answers S the first N times; ?delayMs=N waits"),
        "get": admin("What arrived: {items: [{at, status, body}]}"),
    }));
    paths.insert("/files/{taskId}/{name}".into(), json!({"get": admin("Generated audio, images, WAV, stems, video (public; 404 once expired: 14 days, 15 for extensions and WAV)")}));
    json!({
        "openapi": "3.0.3",
        "info": {
            "title": "tunesmith emulator of the music-generation service",
            "version": "1.0.0",
            "description": concat!(
                "Music host: every envelope is answered with HTTP 200; the outcome is the body `code` ",
                "(unknown paths: HTTP 404, code 404). Upload host: HTTP status equals `code`. ",
                "Costs: see x-credits of each operation (split_stem and split_stem_advanced separations 10). ",
                "`emulate:STATUS` in title/prompt/content (or any string field) forces an outcome; ",
                "`emulate:skip-stages` completes in one stage; header X-Emulate-Code: N answers code N; ",
                "X-Emulate-Retry-After: SECONDS sets Retry-After; X-Emulate-Stage-Delay-Ms: N on a create ",
                "spaces the new task's stages N ms apart (at most 600000). Rate limit: --rate-limit per 10 s per key ",
                "(430 music, 429 cover, mashup and upload, with Retry-After). Every response carries X-Request-Id."
            ),
        },
        "servers": [{"url": music, "description": "music host"}],
        "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
        "paths": paths,
    })
}
