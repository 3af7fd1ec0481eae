//! Source audio of the upload operations: a file that is not audio fails its task as the service
//! documents for an unsupported source (callback code 400, record in a failed state).

mod common;

use common::{rand_name, Emu};
use serde_json::json;

/// Uploads `bytes` as `name` (Base64) and returns its `fileUrl`.
async fn upload(emu: &Emu, bytes: &[u8], name: &str) -> String {
    emu.store_bytes(bytes, "src", name).await["fileUrl"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn a_text_file_as_source_fails_the_task_with_callback_code_400() {
    let emu = Emu::start(&[]).await;
    let url = upload(&emu, b"these are notes, not a song\n", "notes.txt").await;
    let inbox = rand_name();
    let bodies = [
        (
            "/api/v1/generate/upload-cover",
            json!({"uploadUrl": url, "customMode": false, "instrumental": true, "model": "V6",
                   "callBackUrl": emu.inbox_url(&inbox), "prompt": "cover it"}),
        ),
        (
            "/api/v1/generate/add-instrumental",
            json!({"uploadUrl": url, "title": "Inst", "negativeTags": "none", "tags": "piano",
                   "callBackUrl": emu.inbox_url(&inbox)}),
        ),
    ];
    for (n, (path, body)) in bodies.into_iter().enumerate() {
        let v = emu.post(path, body).await;
        assert_eq!(v["code"], 200, "the request itself is valid: {v}");
        let id = v["data"]["taskId"].as_str().unwrap().to_owned();
        let rec = emu
            .wait_for(
                &format!("/api/v1/generate/record-info?taskId={id}"),
                "status",
                &[json!("GENERATE_AUDIO_FAILED")],
            )
            .await;
        assert_eq!(rec["errorCode"], 400, "{rec}");
        let msg = rec["errorMessage"].as_str().unwrap();
        assert!(msg.contains("Unsupported source audio format"), "{msg}");
        assert_eq!(rec["response"]["sunoData"], json!([]));

        let items = emu.inbox_wait(&inbox, n + 1).await;
        let cb = &items[n]["body"];
        assert_eq!(cb["code"], 400, "{cb}");
        assert_eq!(cb["data"]["callbackType"], "error");
        assert_eq!(cb["data"]["task_id"], id.as_str());
        assert!(cb["data"]["data"].is_null());
    }
}
