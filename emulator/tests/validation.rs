//! Every request rule of the protocol's endpoint table, checked over HTTP: each broken rule gets
//! its table's code (music: 413 too long, else 400; cover: 422; upload: HTTP 400) and a message
//! naming the field, and creates nothing.

mod common;

use common::{Emu, KEY};
use serde_json::{json, Map, Value};
use tunesmith_protocol::endpoints::MAX_LYRICS_V6;
use tunesmith_protocol::rules::{FieldRule, Kind, Range};
use tunesmith_protocol::{CodeTable, Host, Method, Op};

const TAG: &str = "validation";

fn valid_value(rule: &FieldRule, emu: &Emu) -> Value {
    match rule.kind {
        Kind::Text { .. } => json!("x"),
        Kind::Words { .. } => json!("a few words"),
        Kind::Url => json!(emu.inbox_url("validation")),
        Kind::Number(&Range { min, max, .. }) => {
            json!(if (min..=max).contains(&0.5) { 0.5 } else { min })
        }
        Kind::Integer { min, .. } => json!(min),
        Kind::OneOf(values) | Kind::Open(values) => json!(values[0]),
        Kind::Bool => json!(false),
        Kind::DirPath => json!("dir"),
        Kind::FileName => json!("f.txt"),
        Kind::UrlList { min, .. } => json!(vec![emu.inbox_url("validation"); min]),
    }
}

/// The least request of `op` that passes every rule, the rules tying fields together included:
/// the required fields, plus what those rules ask of the operation.
fn valid_request(op: Op, emu: &Emu) -> Map<String, Value> {
    let mut body: Map<String, Value> = op
        .endpoint()
        .fields
        .iter()
        .filter(|f| f.required)
        .map(|f| (f.name.to_owned(), valid_value(f, emu)))
        .collect();
    let patch = match op {
        // `customMode: false` (the valid Boolean above): a description is required.
        Op::Generate | Op::UploadCover | Op::Mashup => json!({ "prompt": "x" }),
        Op::ReplaceSection => {
            json!({ "taskId": "t", "audioId": "a", "infillStartS": 0, "infillEndS": 10 })
        }
        Op::ValidateVoice => json!({ "vocalStartS": 0, "vocalEndS": 10 }),
        Op::ConvertToWav => json!({ "taskId": "t" }),
        _ => json!({}),
    };
    if let Value::Object(extra) = patch {
        body.extend(extra);
    }
    assert_eq!(op.validate(&body), Ok(()), "{op:?}: {body:?}");
    body
}

/// Values that break the rule, each with whether it is a "too long" failure.
fn broken_values(rule: &FieldRule) -> Vec<(Value, bool)> {
    let mut out = vec![];
    match rule.kind {
        Kind::Text { max } => {
            out.push((json!(12), false));
            if let Some(max) = max {
                out.push((json!("y".repeat(max + 1)), true));
            }
        }
        Kind::Words { max_words } => {
            out.push((json!(false), false));
            out.push((json!("w ".repeat(max_words + 1)), true));
        }
        Kind::Url => {
            out.push((json!("ftp://example.com/a"), false));
            out.push((json!("not a url"), false));
        }
        Kind::Number(&Range { min, max, step }) => {
            out.push((json!(max + 1.0), false));
            out.push((json!(min - 1.0), false));
            out.push((json!("0.5"), false));
            if step.is_some() {
                out.push((json!(0.005), false));
            }
        }
        Kind::Integer { min, max } => {
            out.push((json!(max + 1), false));
            out.push((json!(min - 1), false));
            out.push((json!(1.5), false));
        }
        Kind::OneOf(_) => out.push((json!("NOT_IN_THE_ENUM"), false)),
        // A model the service does not know: the client passes it on, the service refuses it.
        Kind::Open(_) => {
            out.push((json!("NOT_IN_THE_ENUM"), false));
            out.push((json!(""), false));
            out.push((json!(6), false));
        }
        Kind::Bool => out.push((json!("true"), false)),
        Kind::DirPath => {
            out.push((json!("../escape"), false));
            out.push((json!("/abs"), false));
        }
        Kind::FileName => {
            out.push((json!("a/b"), false));
            out.push((json!(".."), false));
        }
        Kind::UrlList { max, .. } => {
            out.push((json!("https://example.com/a.mp3"), false));
            out.push((json!(vec!["https://example.com/a.mp3"; max + 1]), false));
            out.push((json!(vec!["not a url"; max]), false));
        }
    }
    out
}

async fn send(emu: &Emu, op: Op, body: &Map<String, Value>) -> (i64, String) {
    let e = op.endpoint();
    let base = if e.host == Host::Upload {
        &emu.upload
    } else {
        &emu.music
    };
    let url = format!("{base}{}", op.path("suno"));
    let req = match e.method {
        Method::Get => {
            let q: Vec<(String, String)> = body
                .iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.as_str().map_or_else(|| v.to_string(), str::to_owned),
                    )
                })
                .collect();
            emu.http.get(url).query(&q)
        }
        Method::Post => emu.http.post(url).json(body),
    };
    let res = req
        .bearer_auth(KEY)
        .header("X-Emulator-Tag", TAG)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let v: Value = res.json().await.unwrap();
    if e.host == Host::Upload {
        assert_eq!(
            i64::from(status),
            v["code"].as_i64().unwrap(),
            "upload status = code"
        );
        assert_eq!(v["success"], false);
    } else {
        assert_eq!(status, 200, "music envelopes are HTTP 200");
    }
    (
        v["code"].as_i64().unwrap(),
        v["msg"].as_str().unwrap_or("").to_owned(),
    )
}

fn expected(table: CodeTable, too_long: bool) -> i64 {
    match table {
        CodeTable::Cover | CodeTable::Mashup => 422,
        CodeTable::Music if too_long => 413,
        _ => 400,
    }
}

#[tokio::test]
async fn every_field_rule_of_every_endpoint_is_enforced() {
    let emu = Emu::start(&[]).await;
    let mut checked = 0;
    for op in Op::ALL {
        if op == Op::UploadStream {
            continue; // multipart: tests/uploads.rs
        }
        let e = op.endpoint();
        let valid = valid_request(op, &emu);
        for rule in e.fields {
            if rule.required {
                let mut body = valid.clone();
                body.remove(rule.name);
                let (code, msg) = send(&emu, op, &body).await;
                assert_eq!(
                    code,
                    expected(e.codes, false),
                    "{} without {}: {msg}",
                    e.name,
                    rule.name
                );
                assert!(msg.contains(rule.name), "{msg}");
                checked += 1;
            }
            if e.method == Method::Get {
                continue; // query values are strings; only presence can be broken
            }
            for (value, too_long) in broken_values(rule) {
                let mut body = valid.clone();
                body.insert(rule.name.to_owned(), value.clone());
                let (code, msg) = send(&emu, op, &body).await;
                assert_eq!(
                    code,
                    expected(e.codes, too_long),
                    "{}.{} = {value}: {msg}",
                    e.name,
                    rule.name
                );
                assert!(msg.contains(rule.name), "{msg}");
                checked += 1;
            }
        }
    }
    assert!(checked > 150, "{checked}");
    let stats = emu.stats(Some(TAG)).await;
    assert_eq!(stats["tasksCreated"], 0, "refused requests create nothing");
    assert!(stats["requests"].as_u64().unwrap() >= checked);
}

#[tokio::test]
async fn rules_that_tie_fields_together() {
    let emu = Emu::start(&[]).await;
    let cb = emu.inbox_url("x");
    let custom = json!({"defaultParamFlag": true, "audioId": "a", "callBackUrl": cb});
    for missing in ["prompt", "style", "title", "continueAt"] {
        let mut body = json!({"defaultParamFlag": true, "audioId": "a", "callBackUrl": cb,
                              "prompt": "p", "style": "s", "title": "t", "continueAt": 5});
        body.as_object_mut().unwrap().remove(missing);
        let v = emu.post("/api/v1/generate/extend", body).await;
        assert_eq!(v["code"], 400, "{missing}: {v}");
        assert!(v["msg"].as_str().unwrap().contains(missing));
    }
    assert_eq!(
        emu.post("/api/v1/generate/extend", custom).await["code"],
        400
    );
    let mut limits = json!({"defaultParamFlag": true, "audioId": "a", "callBackUrl": cb,
                            "prompt": "p".repeat(3001), "style": "s", "title": "t", "continueAt": 5});
    assert_eq!(
        emu.post("/api/v1/generate/extend", limits.clone()).await["code"],
        413
    );
    limits["prompt"] = json!("p");
    limits["style"] = json!("s".repeat(201));
    assert_eq!(
        emu.post("/api/v1/generate/extend", limits.clone()).await["code"],
        413
    );
    limits["style"] = json!("s");
    limits["title"] = json!("t".repeat(81));
    assert_eq!(
        emu.post("/api/v1/generate/extend", limits.clone()).await["code"],
        413
    );
    limits["title"] = json!("t");
    limits["continueAt"] = json!(0);
    assert_eq!(
        emu.post("/api/v1/generate/extend", limits).await["code"],
        400
    );
    let ue = json!({"uploadUrl": cb, "defaultParamFlag": true, "model": "V6", "callBackUrl": cb});
    assert_eq!(
        emu.post("/api/v1/generate/upload-extend", ue).await["code"],
        400
    );

    let mut inst = json!({"uploadUrl": cb, "title": "t", "negativeTags": "n", "tags": "t",
                          "callBackUrl": cb, "lyrics": "l".repeat(MAX_LYRICS_V6 + 1)});
    for model in [None, Some("V6"), Some("V6_MINI"), Some("V6_WILD")] {
        if let Some(m) = model {
            inst["model"] = json!(m);
        }
        let v = emu
            .post("/api/v1/generate/add-instrumental", inst.clone())
            .await;
        assert_eq!(v["code"], 413, "{model:?}");
        assert!(v["msg"].as_str().unwrap().contains("lyrics"));
    }
    inst["model"] = json!("V4_5");
    assert_eq!(
        emu.post("/api/v1/generate/add-instrumental", inst.clone())
            .await["code"],
        200,
        "deprecated models are accepted and the limit is V6 only"
    );
    for weight in [0.0, 0.07, 0.29, 0.57, 1.0] {
        inst["styleWeight"] = json!(weight);
        inst["variety"] = json!(4);
        inst["vocalGender"] = json!("f");
        assert_eq!(
            emu.post("/api/v1/generate/add-instrumental", inst.clone())
                .await["code"],
            200,
            "{weight}"
        );
    }
    let wav = emu
        .post("/api/v1/wav/generate", json!({"callBackUrl": cb}))
        .await;
    assert_eq!(wav["code"], 400);
    assert!(wav["msg"].as_str().unwrap().contains("audioId"));
}

#[tokio::test]
async fn malformed_json_is_400_in_every_table() {
    let emu = Emu::start(&[]).await;
    for (base, path) in [
        (&emu.music, "/api/v1/generate"),
        (&emu.music, "/api/v1/suno/cover/generate"),
        (&emu.music, "/api/v1/wav/generate"),
        (&emu.upload, "/api/file-base64-upload"),
        (&emu.upload, "/api/file-url-upload"),
    ] {
        for body in ["{not json", "[1,2]", ""] {
            let res = emu
                .http
                .post(format!("{base}{path}"))
                .bearer_auth(KEY)
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await
                .unwrap();
            let v: Value = res.json().await.unwrap();
            assert_eq!(v["code"], 400, "{path} {body:?}: {v}");
        }
    }
    let huge = json!({"prompt": "x".repeat(2 * 1024 * 1024)});
    let v = emu.post("/api/v1/generate", huge).await;
    assert_eq!(v["code"], 413, "oversized JSON gets a clean envelope");
}

/// The V6 rules that tie generate's fields together (issue 38), as the emulator enforces them
/// with the protocol's rules: the other mode's fields, one input per mode, 10 references in all,
/// and a model the service does not know (the client passes it on; the service refuses it, 400).
#[tokio::test]
async fn v6_generate_rules_over_http() {
    let emu = Emu::start(&[]).await;
    let cb = emu.inbox_url("v6");
    let base = |custom: bool, extra: Value| {
        let mut body =
            json!({"customMode": custom, "instrumental": true, "model": "V6", "callBackUrl": cb});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    let url = "https://example.com/r.png";
    for (body, field) in [
        (
            base(false, json!({"prompt": "p", "duration": 30})),
            "duration",
        ),
        (base(false, json!({"prompt": "p", "variety": 1})), "variety"),
        (
            base(true, json!({"style": "pop", "audioUrls": [url]})),
            "audioUrls",
        ),
        (base(false, json!({})), "prompt"),
        (base(true, json!({"title": "t"})), "style"),
        (
            base(
                false,
                json!({"imageUrls": vec![url; 5], "audioUrls": vec![url; 5], "style": "pop"}),
            ),
            "style",
        ),
        (
            base(true, json!({"style": "pop", "model": "V7_UNKNOWN"})),
            "model",
        ),
    ] {
        let v = emu.post("/api/v1/generate", body.clone()).await;
        assert_eq!(v["code"], 400, "{body}: {v}");
        assert!(v["msg"].as_str().unwrap().contains(field), "{field}: {v}");
    }
    for body in [
        base(false, json!({"style": "pop", "imageUrls": []})),
        base(
            true,
            json!({"lyrics": "la", "duration": 40, "variety": 4, "model": "V4"}),
        ),
    ] {
        let v = emu.post("/api/v1/generate", body.clone()).await;
        assert_eq!(v["code"], 200, "{body}: {v}");
    }
}
