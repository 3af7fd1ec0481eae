//! Upload tests that hold in every runtime: Base64 in all its input forms, URL uploads, Blob
//! streams through fetch, and every refusal made before the network.
//! Over 400 lines on purpose: one short test per input form and per refusal of one behaviour (what
//! an upload sends), run in Node and Chromium alike.

use super::helpers::*;
use crate::common::*;
use js_sys::{Promise, Uint8Array};
use tunesmith::Client;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

fn base64_of(bytes: &Uint8Array) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let v = bytes.to_vec();
    let mut out = String::new();
    for c in v.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            out.push(if i <= c.len() {
                A[(n >> (18 - 6 * i)) as usize & 63] as char
            } else {
                '='
            });
        }
    }
    out
}

fn base64_upload(c: &Client, data: JsValue, options: serde_json::Value) -> Promise {
    c.upload_base64(data, Some(js(options)))
}

#[wasm_bindgen_test]
async fn base64_from_a_data_url_round_trips_with_a_name_from_its_type() {
    let t = tag("b64-data-url");
    let c = client(&t);
    let bytes = wav_bytes(40_000, 1);
    let data_url = format!("data:audio/wav;base64,{}", base64_of(&bytes));
    let record = ok(base64_upload(
        &c,
        data_url.into(),
        serde_json::json!({ "uploadPath": unique_path(&t) }),
    ))
    .await;
    let name = prop_str(&record, "fileName");
    assert!(
        name.ends_with(".wav"),
        "generated name without the type's extension: {name}"
    );
    assert_record(&record, &name, "audio/wav", f64::from(bytes.length()));
    assert_eq!(prop_str(&record, "uploadPath"), unique_path(&t));
    assert_stored(&record, &bytes.into()).await;
    let log = requests(&t).await;
    assert_eq!(log.len(), 1);
    assert_eq!(prop_str(&log[0], "op"), "uploadBase64");
}

#[wasm_bindgen_test]
async fn base64_from_a_uint8array_round_trips_with_a_sniffed_type() {
    let t = tag("b64-bytes");
    let c = client(&t);
    let bytes = wav_bytes(100_001, 2);
    let record = ok(base64_upload(
        &c,
        bytes.clone().into(),
        serde_json::json!({ "fileName": "take-1.wav", "uploadPath": unique_path(&t) }),
    ))
    .await;
    assert_record(
        &record,
        "take-1.wav",
        "audio/wav",
        f64::from(bytes.length()),
    );
    assert_stored(&record, &bytes.into()).await;
}

#[wasm_bindgen_test]
async fn base64_from_an_arraybuffer_and_a_subarray_sends_exactly_their_bytes() {
    let t = tag("b64-buffer");
    let c = client(&t);
    let bytes = pattern(3 * 1000 + 2, 3);
    let record = ok(base64_upload(
        &c,
        bytes.buffer().into(),
        serde_json::json!({ "fileName": "raw.bin" }),
    ))
    .await;
    assert_eq!(
        prop(&record, "fileSize").as_f64(),
        Some(f64::from(bytes.length()))
    );
    assert_stored(&record, &bytes.clone().into()).await;
    // A view into a larger buffer: only the viewed bytes go.
    let view = bytes.subarray(10, 1010);
    let record = ok(base64_upload(
        &c,
        view.clone().into(),
        serde_json::json!({ "fileName": "view.bin" }),
    ))
    .await;
    assert_eq!(prop(&record, "fileSize").as_f64(), Some(1000.0));
    assert_stored(&record, &view.slice(0, 1000).into()).await;
}

#[wasm_bindgen_test]
async fn bare_base64_text_with_line_breaks_and_a_mime_type_round_trips() {
    let t = tag("b64-bare");
    let c = client(&t);
    let bytes = wav_bytes(5_000, 4);
    let text = base64_of(&bytes);
    let wrapped: String = text
        .as_bytes()
        .chunks(76)
        .map(|l| String::from_utf8_lossy(l).into_owned())
        .collect::<Vec<_>>()
        .join("\r\n");
    let record = ok(base64_upload(
        &c,
        wrapped.into(),
        serde_json::json!({ "mimeType": "audio/wav" }),
    ))
    .await;
    assert!(prop_str(&record, "fileName").ends_with(".wav"));
    assert_record(
        &record,
        &prop_str(&record, "fileName"),
        "audio/wav",
        f64::from(bytes.length()),
    );
    assert_stored(&record, &bytes.into()).await;
}

#[wasm_bindgen_test]
async fn a_blob_streams_through_fetch_and_keeps_bytes() {
    let t = tag("stream-blob");
    let c = client(&t);
    let bytes = wav_bytes(300_000, 5);
    let blob = blob_of(&[bytes.clone().into()], "audio/wav");
    let record = ok(c.upload_file(
        blob.clone(),
        Some(js(serde_json::json!({ "uploadPath": unique_path(&t) }))),
    ))
    .await;
    // A nameless Blob goes without a name: the service makes one up, of its type.
    let name = prop_str(&record, "fileName");
    assert!(
        !name.starts_with("blob") && name.ends_with(".wav"),
        "{name}"
    );
    assert_record(&record, &name, "audio/wav", f64::from(bytes.length()));
    assert_stored(&record, &blob).await;
    assert_eq!(prop_str(&requests(&t).await[0], "op"), "uploadFile");
    // A second nameless Blob gets a name of its own: neither overwrites the other.
    let other = blob_of(&[wav_bytes(40_000, 9).into()], "audio/wav");
    let second = ok(c.upload_file(
        other.clone(),
        Some(js(serde_json::json!({ "uploadPath": unique_path(&t) }))),
    ))
    .await;
    assert_ne!(
        prop_str(&second, "downloadUrl"),
        prop_str(&record, "downloadUrl")
    );
    assert_stored(&second, &other).await;
    assert_stored(&record, &blob).await;
}

#[wasm_bindgen_test]
async fn url_upload_stores_the_remote_file_under_its_name() {
    let t = tag("url");
    let c = client(&t);
    let bytes = wav_bytes(20_000, 6);
    let source = ok(base64_upload(
        &c,
        bytes.clone().into(),
        serde_json::json!({ "fileName": "source.wav", "uploadPath": unique_path(&t) }),
    ))
    .await;
    let record = ok(c.upload_from_url(
        prop(&source, "fileUrl"),
        Some(js(serde_json::json!({ "uploadPath": "copies" }))),
    ))
    .await;
    assert_record(
        &record,
        "source.wav",
        "audio/wav",
        f64::from(bytes.length()),
    );
    assert_eq!(prop_str(&record, "uploadPath"), "copies");
    assert_stored(&record, &bytes.into()).await;
    let renamed = ok(c.upload_from_url(
        prop(&source, "downloadUrl"),
        Some(js(serde_json::json!({ "fileName": "copy.wav" }))),
    ))
    .await;
    assert_eq!(prop_str(&renamed, "fileName"), "copy.wav");
}

#[wasm_bindgen_test]
async fn eleven_mb_of_base64_is_refused_before_any_request() {
    let t = tag("b64-too-large");
    let c = client(&t);
    let eleven = Uint8Array::new_with_length(11 * 1024 * 1024);
    let cases: Vec<(JsFuture, &str)> = [
        (c.upload_base64(eleven.clone().into(), None), "data"),
        (c.upload_base64(eleven.buffer().into(), None), "data"),
        // 11 MB of file as Base64 text: measured from its length, not decoded.
        (
            c.upload_base64("A".repeat(11 * 1024 * 1024 / 3 * 4).into(), None),
            "data",
        ),
        (
            c.upload_file(
                blob_of(&[eleven.into()], ""),
                Some(js(serde_json::json!({ "method": "base64" }))),
            ),
            "file",
        ),
    ]
    .into_iter()
    .map(|(p, field)| (JsFuture::from(p), field))
    .collect();
    for (p, field) in cases {
        let e = p.await.expect_err("a refusal");
        assert_class(&e, "ValidationError");
        assert_eq!(prop_str(&e, "field"), field);
        assert_eq!(prop_str(&e, "rule"), "max_size");
        assert!(message(&e).contains("stream upload"), "{}", message(&e));
    }
    assert_eq!(stats(&t).await.0, 0, "a request was sent");
}

#[wasm_bindgen_test]
async fn exactly_ten_mb_of_padded_base64_text_passes_the_client_size_check() {
    let t = tag("b64-ten");
    let c = client(&t);
    // 10 MiB of zero bytes as padded text: counting the two `=` as data would make it 2 bytes too
    // many. Only the client's check is asserted: the request must go out. (The emulator counts the
    // padding, so it may answer 400 at exactly the limit.)
    let len = 10 * 1024 * 1024;
    let text = format!("{}{}", "A".repeat(len / 3 * 4), "AA==");
    if let Err(e) = JsFuture::from(c.upload_base64(text.into(), None)).await {
        assert_class(&e, "ApiError");
    }
    assert_eq!(stats(&t).await.0, 1, "the client refused 10 MiB");
}

#[wasm_bindgen_test]
async fn unsafe_paths_bad_urls_and_bad_inputs_are_refused_before_any_request() {
    let t = tag("upload-validation");
    let c = client(&t);
    let small = || blob_of(&[pattern(10, 1).into()], "audio/wav");
    // Each Promise gets its handlers at once (JsFuture::from), so Node never sees an unhandled rejection.
    let cases: Vec<(JsFuture, &str, &str)> = [
        (
            c.upload_file(
                small(),
                Some(js(serde_json::json!({ "uploadPath": "../outside" }))),
            ),
            "uploadPath",
            "safe_path",
        ),
        (
            c.upload_file(
                small(),
                Some(js(serde_json::json!({ "uploadPath": "a/../../b" }))),
            ),
            "uploadPath",
            "safe_path",
        ),
        (
            c.upload_file(
                small(),
                Some(js(serde_json::json!({ "uploadPath": "/etc" }))),
            ),
            "uploadPath",
            "safe_path",
        ),
        (
            c.upload_file(
                small(),
                Some(js(serde_json::json!({ "uploadPath": "C:\\x" }))),
            ),
            "uploadPath",
            "safe_path",
        ),
        (
            c.upload_file(
                small(),
                Some(js(serde_json::json!({ "fileName": "../../x.wav" }))),
            ),
            "fileName",
            "safe_path",
        ),
        (
            c.upload_file(
                small(),
                Some(js(serde_json::json!({ "fileName": "a/b.wav" }))),
            ),
            "fileName",
            "safe_path",
        ),
        (
            c.upload_file(small(), Some(js(serde_json::json!({ "fileName": ".." })))),
            "fileName",
            "safe_path",
        ),
        (
            c.upload_file(small(), Some(js(serde_json::json!({ "uploadPath": 7 })))),
            "uploadPath",
            "type",
        ),
        (
            c.upload_file(small(), Some(js(serde_json::json!({ "method": "zip" })))),
            "method",
            "one_of",
        ),
        (
            c.upload_file(small(), Some(js(serde_json::json!({ "onProgress": true })))),
            "onProgress",
            "type",
        ),
        (c.upload_file("not a file".into(), None), "file", "type"),
        (
            c.upload_file(js(serde_json::json!({ "name": "x.wav", "size": 3 })), None),
            "file",
            "type",
        ),
        (
            c.upload_file(blob_of(&[], "audio/wav"), None),
            "file",
            "not_empty",
        ),
        (
            c.upload_file(
                small(),
                Some(js(
                    serde_json::json!({ "method": "base64", "fileName": "x/../y" }),
                )),
            ),
            "fileName",
            "safe_path",
        ),
        (c.upload_base64("".into(), None), "data", "not_empty"),
        (
            c.upload_base64(Uint8Array::new_with_length(0).into(), None),
            "data",
            "not_empty",
        ),
        (c.upload_base64("not base64!".into(), None), "data", "type"),
        (
            c.upload_base64("data:audio/wav,UklG".into(), None),
            "data",
            "type",
        ),
        (
            c.upload_base64(JsValue::from_f64(5.0), None),
            "data",
            "type",
        ),
        (
            c.upload_base64(
                "UklG".into(),
                Some(js(serde_json::json!({ "mimeType": "wav" }))),
            ),
            "mimeType",
            "type",
        ),
        (
            c.upload_base64(
                "UklG".into(),
                Some(js(serde_json::json!({ "uploadPath": "../x" }))),
            ),
            "uploadPath",
            "safe_path",
        ),
        (
            c.upload_from_url("ftp://example.com/a.wav".into(), None),
            "fileUrl",
            "url",
        ),
        (
            c.upload_from_url("javascript:alert(1)".into(), None),
            "fileUrl",
            "url",
        ),
        (
            c.upload_from_url("example.com/a.wav".into(), None),
            "fileUrl",
            "url",
        ),
        (
            c.upload_from_url(JsValue::UNDEFINED, None),
            "fileUrl",
            "required",
        ),
        (
            c.upload_from_url(
                "https://example.com/a.wav".into(),
                Some(js(serde_json::json!({ "fileName": "../a.wav" }))),
            ),
            "fileName",
            "safe_path",
        ),
        (
            c.upload_from_url(
                "https://example.com/a.wav".into(),
                Some(js(serde_json::json!({ "uploadPath": "x/./y" }))),
            ),
            "uploadPath",
            "safe_path",
        ),
    ]
    .into_iter()
    .map(|(p, field, rule)| (JsFuture::from(p), field, rule))
    .collect();
    for (i, (p, field, rule)) in cases.into_iter().enumerate() {
        let e = p.await.expect_err("a refusal");
        assert_class(&e, "ValidationError");
        assert_eq!(
            (
                prop_str(&e, "field").as_str(),
                prop_str(&e, "rule").as_str()
            ),
            (field, rule),
            "case {i}: {}",
            message(&e)
        );
    }
    assert_eq!(stats(&t).await.0, 0, "a request was sent");
}

#[wasm_bindgen_test]
async fn service_refusals_map_to_api_errors() {
    let t = tag("upload-401");
    let c = client_with(&t, serde_json::json!({ "apiKey": "not-a-key" }));
    let calls = [
        c.upload_base64("UklGRg==".into(), None),
        c.upload_base64(
            pattern(100, 1).into(),
            Some(js(serde_json::json!({ "fileName": "x.bin" }))),
        ),
        c.upload_from_url("http://127.0.0.1:9/a.wav".into(), None),
    ]
    .map(JsFuture::from);
    for p in calls {
        let e = p.await.expect_err("a refusal");
        assert_class(&e, "ApiError");
        assert_eq!(prop_str(&e, "kind"), "unauthorized", "{}", message(&e));
        assert_eq!(prop(&e, "code").as_f64(), Some(401.0));
    }
}

#[wasm_bindgen_test]
async fn refused_stream_uploads_report_the_service_answer_every_time() {
    // The emulator used to answer before reading the multipart body and close the connection, so
    // fetch (Node) saw a write error, a NetworkError with no code, 9 times in 10. It now reads the
    // body first, as common servers do, and the client reports what the service said.
    let t = tag("stream-refused");
    let bad = client_with(&t, serde_json::json!({ "apiKey": "not-a-key" }));
    let blob = blob_of(&[pattern(4_000_000, 3).into()], "audio/wav");
    for _ in 0..10 {
        let e = err(bad.upload_file(blob.clone(), None)).await;
        assert_class(&e, "ApiError");
        assert_eq!(prop_str(&e, "kind"), "unauthorized", "{}", message(&e));
        assert_eq!(prop(&e, "status").as_f64(), Some(401.0));
    }
    let c = client(&t);
    arm_fault(
        &t,
        serde_json::json!({ "code": 429, "times": 1, "retryAfterMs": 5000, "ops": ["uploadFile"] }),
    )
    .await;
    let e = err(c.upload_file(blob, Some(js(serde_json::json!({ "maxRetries": 0 }))))).await;
    assert_class(&e, "ApiError");
    assert_eq!(prop_str(&e, "kind"), "rate_limited", "{}", message(&e));
    assert_eq!(prop(&e, "code").as_f64(), Some(429.0));
}

#[wasm_bindgen_test]
async fn on_progress_ends_at_the_total_on_every_path() {
    let t = tag("progress-any");
    let c = client(&t);
    let bytes = wav_bytes(50_000, 8);
    let size = f64::from(bytes.length());
    let log = ProgressLog::new(|_, _| {});
    let record = ok(c.upload_file(
        blob_of(&[bytes.clone().into()], "audio/wav"),
        Some(opts(
            serde_json::json!({}),
            &[("onProgress", log.function())],
        )),
    ))
    .await;
    assert_eq!(prop(&record, "fileSize").as_f64(), Some(size));
    log.assert_complete(size);
    let log = ProgressLog::new(|_, _| {});
    ok(c.upload_base64(
        bytes.into(),
        Some(opts(
            serde_json::json!({}),
            &[("onProgress", log.function())],
        )),
    ))
    .await;
    log.assert_complete(size);
}

#[wasm_bindgen_test]
async fn a_server_error_is_retried_and_the_upload_succeeds() {
    let t = tag("upload-retry");
    let c = client(&t);
    arm_fault(&t, serde_json::json!({ "code": 500, "times": 1 })).await;
    let bytes = pattern(10_000, 9);
    let log = ProgressLog::new(|_, _| {});
    let record = ok(c.upload_file(
        blob_of(&[bytes.clone().into()], ""),
        Some(opts(
            serde_json::json!({ "fileName": "retried.bin" }),
            &[("onProgress", log.function())],
        )),
    ))
    .await;
    assert_eq!(prop_str(&record, "fileName"), "retried.bin");
    assert_eq!(stats(&t).await.0, 2, "one failed attempt, one retry");
    log.assert_complete(10_000.0);
    assert_stored(&record, &bytes.into()).await;
}

#[wasm_bindgen_test]
async fn names_with_quotes_and_accents_survive_the_base64_request() {
    let t = tag("b64-names");
    let c = client(&t);
    let name = "take \"1\" – é ü.wav";
    let record = ok(c.upload_base64(
        wav_bytes(100, 10).into(),
        Some(js(
            serde_json::json!({ "fileName": name, "uploadPath": "quotes \"and\" ü" }),
        )),
    ))
    .await;
    assert_eq!(prop_str(&record, "fileName"), name);
    assert_eq!(prop_str(&record, "uploadPath"), "quotes \"and\" ü");
}
