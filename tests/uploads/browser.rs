//! Upload tests that need a browser: real `File` objects, a 50 MB stream with XMLHttpRequest
//! progress, and aborts in the middle of an upload.

use super::helpers::*;
use crate::common::*;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
async fn a_file_streams_under_its_own_name_with_its_type_and_bytes() {
    let t = tag("stream-file");
    let c = client(&t);
    let bytes = wav_bytes(200_000, 11);
    let file = file_of(
        &[bytes.clone().into()],
        "lead vocal (take 2).wav",
        "audio/wav",
    );
    let record = ok(c.upload_file(
        file.clone(),
        Some(js(serde_json::json!({ "uploadPath": unique_path(&t) }))),
    ))
    .await;
    assert_record(
        &record,
        "lead vocal (take 2).wav",
        "audio/wav",
        f64::from(bytes.length()),
    );
    assert_eq!(prop_str(&record, "originalName"), "lead vocal (take 2).wav");
    assert_eq!(prop_str(&record, "uploadPath"), unique_path(&t));
    assert_stored(&record, &file).await;
    // The stored file is also served at its path.
    let (status, _) = download(&prop_str(&record, "fileUrl")).await;
    assert_eq!(status, 200);
}

#[wasm_bindgen_test]
async fn file_name_renames_the_stored_file_and_keeps_the_original_name() {
    let t = tag("stream-rename");
    let c = client(&t);
    let file = file_of(&[wav_bytes(1_000, 12).into()], "original.wav", "audio/wav");
    let record = ok(c.upload_file(
        file,
        Some(js(
            serde_json::json!({ "fileName": "renamed.wav", "method": "stream" }),
        )),
    ))
    .await;
    assert_eq!(prop_str(&record, "fileName"), "renamed.wav");
    assert_eq!(prop_str(&record, "originalName"), "original.wav");
}

#[wasm_bindgen_test]
async fn a_fifty_mb_file_streams_with_increasing_progress_and_round_trips() {
    let t = tag("stream-50mb");
    let c = client(&t);
    let file = big_file(50, "fifty.bin");
    let size = 50.0 * 1024.0 * 1024.0;
    let log = ProgressLog::new(|_, _| {});
    let record = ok(c.upload_file(
        file.clone(),
        Some(opts(
            serde_json::json!({ "uploadPath": unique_path(&t) }),
            &[("onProgress", log.function())],
        )),
    ))
    .await;
    assert_record(&record, "fifty.bin", "application/octet-stream", size);
    // Increasing, ending at the total; how many events come depends on the machine's speed.
    log.assert_complete(size);
    assert_stored(&record, &file).await;
}

#[wasm_bindgen_test]
async fn the_base64_method_keeps_the_file_name_and_type() {
    let t = tag("file-b64");
    let c = client(&t);
    let bytes = wav_bytes(120_000, 13);
    let file = file_of(&[bytes.clone().into()], "hum.wav", "audio/wav");
    let log = ProgressLog::new(|_, _| {});
    let record = ok(c.upload_file(
        file.clone(),
        Some(opts(
            serde_json::json!({ "method": "base64" }),
            &[("onProgress", log.function())],
        )),
    ))
    .await;
    assert_record(&record, "hum.wav", "audio/wav", f64::from(bytes.length()));
    log.assert_complete(f64::from(bytes.length()));
    assert_stored(&record, &file).await;
    assert_eq!(prop_str(&requests(&t).await[0], "op"), "uploadBase64");
}

/// Whether the upload host serves `path/name`: an aborted upload must leave nothing behind.
async fn stored(path: &str, name: &str) -> bool {
    sleep(300).await;
    download(&format!("{UPLOAD}/files/{path}/{name}")).await.0 == 200
}

#[wasm_bindgen_test]
async fn abort_in_the_middle_of_a_progress_upload_rejects_and_stores_nothing() {
    let t = tag("abort-xhr");
    let c = client(&t);
    // The emulator holds the request before reading its body: the upload is surely in flight
    // (some bytes out, not all) when it is aborted, however fast the host.
    arm_fault(&t, serde_json::json!({ "delayMs": 3000, "times": 1 })).await;
    let controller = abort_controller();
    let signal_owner = controller.clone();
    let aborted = Rc::new(Cell::new(false));
    let flag = aborted.clone();
    let log = ProgressLog::new(move |loaded, total| {
        if loaded > 0.0 && loaded < total && !flag.get() {
            flag.set(true);
            signal_owner.abort();
        }
    });
    let path = unique_path(&t);
    let p = c.upload_file(
        big_file(50, "partial.bin"),
        Some(opts(
            serde_json::json!({ "uploadPath": path, "maxRetries": 3 }),
            &[
                ("onProgress", log.function()),
                ("signal", controller.signal().into()),
            ],
        )),
    );
    let e = err(p).await;
    assert_class(&e, "AbortError");
    assert!(aborted.get(), "no progress event came before the end");
    let last = log.events.borrow().last().copied().unwrap();
    assert!(
        last.0 < last.1,
        "progress reported completion of an aborted upload"
    );
    assert!(
        !stored(&path, "partial.bin").await,
        "the emulator stored an aborted upload"
    );
}

#[wasm_bindgen_test]
async fn abort_in_the_middle_of_a_fetch_upload_rejects_and_stores_nothing() {
    let t = tag("abort-fetch");
    let c = client(&t);
    arm_fault(&t, serde_json::json!({ "delayMs": 3000, "times": 1 })).await;
    let controller = abort_controller();
    let path = unique_path(&t);
    let p = c.upload_file(
        big_file(50, "partial.bin"),
        Some(opts(
            serde_json::json!({ "uploadPath": path }),
            &[("signal", controller.signal().into())],
        )),
    );
    sleep(30).await;
    controller.abort();
    let e = err(p).await;
    assert_class(&e, "AbortError");
    assert!(
        !stored(&path, "partial.bin").await,
        "the emulator stored an aborted upload"
    );
}

#[wasm_bindgen_test]
async fn an_already_aborted_signal_sends_nothing() {
    let t = tag("abort-before");
    let c = client(&t);
    let controller = abort_controller();
    controller.abort();
    let log = ProgressLog::new(|_, _| {});
    let e = err(c.upload_file(
        file_of(&[pattern(10, 1).into()], "x.bin", ""),
        Some(opts(
            serde_json::json!({}),
            &[
                ("onProgress", log.function()),
                ("signal", controller.signal().into()),
            ],
        )),
    ))
    .await;
    assert_class(&e, "AbortError");
    assert_eq!(stats(&t).await.0, 0);
}

#[wasm_bindgen_test]
async fn a_per_call_timeout_stops_a_slow_upload_with_timeout_error() {
    let t = tag("upload-timeout");
    let c = client(&t);
    arm_fault(&t, serde_json::json!({ "delayMs": 2000, "times": 2 })).await;
    for with_progress in [true, false] {
        let log = ProgressLog::new(|_, _| {});
        let extra: Vec<(&str, JsValue)> = if with_progress {
            vec![("onProgress", log.function())]
        } else {
            vec![]
        };
        let e = err(c.upload_file(
            file_of(&[pattern(1000, 1).into()], "slow.bin", ""),
            Some(opts(
                serde_json::json!({ "timeoutMs": 300, "maxRetries": 0 }),
                &extra,
            )),
        ))
        .await;
        assert_class(&e, "TimeoutError");
    }
}

#[wasm_bindgen_test]
async fn an_unreachable_upload_host_is_a_network_error() {
    let t = tag("upload-network");
    let c = client_with(
        &t,
        serde_json::json!({ "uploadUrl": "http://127.0.0.1:9", "maxRetries": 0 }),
    );
    let log = ProgressLog::new(|_, _| {});
    for extra in [vec![("onProgress", log.function())], vec![]] {
        let e = err(c.upload_file(
            file_of(&[pattern(10, 1).into()], "x.bin", ""),
            Some(opts(serde_json::json!({}), &extra)),
        ))
        .await;
        assert_class(&e, "NetworkError");
    }
}

#[wasm_bindgen_test]
async fn multipart_refusals_map_to_api_errors_with_and_without_progress() {
    let t = tag("stream-401");
    let c = client_with(&t, serde_json::json!({ "apiKey": "not-a-key" }));
    let log = ProgressLog::new(|_, _| {});
    for extra in [vec![("onProgress", log.function())], vec![]] {
        let e = err(c.upload_file(
            file_of(&[pattern(100, 1).into()], "x.bin", ""),
            Some(opts(serde_json::json!({}), &extra)),
        ))
        .await;
        assert_class(&e, "ApiError");
        assert_eq!(prop_str(&e, "kind"), "unauthorized", "{}", message(&e));
        assert_eq!(prop(&e, "code").as_f64(), Some(401.0));
    }
}
