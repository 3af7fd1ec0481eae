//! Clients and requests of the Rust API suite.

use super::common::{callback_url, KEY, MUSIC, UPLOAD};
use tunesmith::rust_api::{Client, ClientConfig, GenerateRequest, MusicRecord, WaitOptions};

/// A client of the emulator whose requests carry `tag`, with `extra` headers.
pub fn client_with(tag: &str, max_retries: u32, extra: &[(&str, &str)]) -> Client {
    let mut headers = vec![("X-Emulator-Tag".to_owned(), tag.to_owned())];
    headers.extend(
        extra
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
    );
    Client::new(ClientConfig {
        api_key: Some(KEY.to_owned()),
        base_url: MUSIC.to_owned(),
        upload_url: UPLOAD.to_owned(),
        max_retries,
        headers,
        ..ClientConfig::default()
    })
    .unwrap()
}

pub fn client(tag: &str) -> Client {
    client_with(tag, 2, &[])
}

pub fn generate_request(tag: &str, prompt: &str) -> GenerateRequest {
    GenerateRequest {
        custom_mode: false,
        instrumental: true,
        model: "V6".into(),
        call_back_url: callback_url(tag),
        prompt: Some(prompt.into()),
        ..GenerateRequest::default()
    }
}

/// Polls fast: the emulator runs a stage every 100 ms under `cargo xtask test`.
pub fn fast() -> WaitOptions {
    WaitOptions {
        timeout_ms: 30_000,
        min_interval_ms: Some(50),
        max_interval_ms: Some(200),
    }
}

pub async fn finished_music_task(client: &Client, tag: &str) -> MusicRecord {
    let created = client
        .generate(&generate_request(tag, "a finished song"))
        .await
        .unwrap();
    client
        .wait_for_task(&created.task_id, fast())
        .await
        .unwrap()
}
