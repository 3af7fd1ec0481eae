//! What the tests of the studio operations start from: a finished song, an upload of its audio,
//! a vocal separation; and what they measure in WAV files (samples, pitch, correlation).

use std::f32::consts::TAU;

use super::Emu;
use serde_json::{json, Value};

pub const RATE: f32 = 22_050.0;

pub async fn credits(emu: &Emu) -> i64 {
    emu.get("/api/v1/generate/credit").await["data"]
        .as_i64()
        .unwrap()
}

pub async fn download(emu: &Emu, url: &str) -> Vec<u8> {
    let res = emu.public(url).await;
    assert_eq!(res.status(), 200, "{url}");
    res.bytes().await.unwrap().to_vec()
}

pub fn samples(wav: &[u8]) -> Vec<f32> {
    let mut r = hound::WavReader::new(std::io::Cursor::new(wav)).expect("a WAV");
    r.samples::<i16>()
        .map(|s| f32::from(s.unwrap()) / 32768.0)
        .collect()
}

pub fn raw(wav: &[u8]) -> Vec<i16> {
    let mut r = hound::WavReader::new(std::io::Cursor::new(wav)).expect("a WAV");
    r.samples::<i16>().map(|s| s.unwrap()).collect()
}

/// Power at `freq` (Goertzel over a Hann window).
pub fn power(x: &[f32], freq: f32) -> f32 {
    let n = x.len() as f32;
    let k = 2.0 * (TAU * freq / RATE).cos();
    let (mut s1, mut s2) = (0.0f32, 0.0f32);
    for (i, v) in x.iter().enumerate() {
        let s = v * (0.5 - 0.5 * (TAU * i as f32 / n).cos()) + k * s1 - s2;
        s2 = s1;
        s1 = s;
    }
    s1 * s1 + s2 * s2 - k * s1 * s2
}

pub fn dominant_pitch(x: &[f32]) -> i64 {
    let hz = |m: i64| 440.0 * 2f32.powf((m as f32 - 69.0) / 12.0);
    (24..=108)
        .max_by(|a, b| power(x, hz(*a)).total_cmp(&power(x, hz(*b))))
        .unwrap()
}

/// Normalized correlation of two signals over their common length.
pub fn correlation(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (mut ab, mut aa, mut bb) = (0.0f64, 0.0f64, 0.0f64);
    for i in 0..n {
        let (x, y) = (f64::from(a[i]), f64::from(b[i]));
        ab += x * y;
        aa += x * x;
        bb += y * y;
    }
    (ab / (aa * bb).sqrt().max(1e-12)) as f32
}

/// A finished song whose first track lasts at least `min_s` seconds (the callback URL is fixed so
/// that the track lengths depend on the title alone).
pub async fn song(emu: &Emu, min_s: f64) -> (String, Value) {
    for n in 0..20 {
        let v = emu
            .post(
                "/api/v1/generate",
                json!({"customMode": true, "instrumental": false, "model": "V5",
                       "callBackUrl": "https://example.com/cb", "prompt": "la la la\noh oh",
                       "style": "dream pop", "title": format!("Source {n}")}),
            )
            .await;
        let id = v["data"]["taskId"].as_str().unwrap().to_owned();
        let rec = emu
            .wait_for(
                &format!("/api/v1/generate/record-info?taskId={id}"),
                "status",
                &[json!("SUCCESS")],
            )
            .await;
        let track = rec["response"]["sunoData"][0].clone();
        if track["duration"].as_f64().unwrap() >= min_s {
            return (id, track);
        }
    }
    panic!("no track of {min_s} s");
}

/// Stores `url`'s bytes on the upload host: the `uploadUrl` the audio operations take.
pub async fn upload(emu: &Emu, url: &str, name: &str) -> String {
    emu.store_url(url, "newer", name).await
}

pub async fn music_done(emu: &Emu, id: &str) -> Value {
    emu.wait_for(
        &format!("/api/v1/generate/record-info?taskId={id}"),
        "status",
        &[json!("SUCCESS")],
    )
    .await
}

/// A finished separation of a long enough song's first track.
pub async fn separation(emu: &Emu, kind: &str, extra: Value) -> Value {
    let (task_id, track) = song(emu, 0.0).await;
    let mut body = json!({"taskId": task_id, "audioId": track["id"], "type": kind,
                          "callBackUrl": emu.inbox_url("sep")});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let v = emu.post("/api/v1/vocal-removal/generate", body).await;
    assert_eq!(v["code"], 200, "{v}");
    emu.wait_for(
        &format!(
            "/api/v1/vocal-removal/record-info?taskId={}",
            v["data"]["taskId"].as_str().unwrap()
        ),
        "successFlag",
        &[json!("SUCCESS")],
    )
    .await
}
