//! The same media from both builds: for a fixed `--seed`, the wasm build (`TUNESMITH_EMULATOR_CMD`,
//! as `cargo xtask test` runs it) renders byte for byte the WAV, PNG, MP4 and the FLAC inside it
//! that the native build renders. Without the variable it compares two native emulators, which
//! still holds the media to being a function of the seed and the requests alone.

mod common;

use common::mp4::{boxes, find};
use common::{config, Emu};
use serde_json::{json, Value};

/// The FLAC stream's header (`dfLa`: STREAMINFO, with the MD5 of the decoded samples) of the
/// MP4's sound track.
fn flac_info(mp4: &[u8]) -> Vec<u8> {
    for (_, trak) in boxes(find(mp4, b"moov"))
        .into_iter()
        .filter(|(k, _)| k == b"trak")
    {
        let stsd = find(find(find(find(trak, b"mdia"), b"minf"), b"stbl"), b"stsd");
        if &stsd[12..16] == b"fLaC" {
            return find(&stsd[16 + 28..], b"dfLa").to_vec();
        }
    }
    panic!("no FLAC sound track");
}

async fn bytes(emu: &Emu, url: &str) -> Vec<u8> {
    let res = emu.public(url).await;
    assert_eq!(res.status(), 200, "{url}");
    res.bytes().await.unwrap().to_vec()
}

/// A task's seed is drawn from its whole request, so both emulators get the same callback URL
/// (one nobody listens on: the deliveries fail, which the media do not depend on).
const CALLBACK: &str = "http://127.0.0.1:9/media";

/// One generate task's media, named by what they are.
async fn media(emu: &Emu) -> Vec<(String, Vec<u8>)> {
    let v = emu
        .post(
            "/api/v1/generate",
            json!({
                "customMode": true, "instrumental": false, "model": "V4_5",
                "callBackUrl": CALLBACK,
                "prompt": "rain on a tin roof", "style": "lo-fi", "title": "Same Bytes",
            }),
        )
        .await;
    assert_eq!(v["code"], 200, "{v}");
    let id = v["data"]["taskId"].as_str().unwrap().to_owned();
    let rec = emu
        .wait_for(
            &format!("/api/v1/generate/record-info?taskId={id}"),
            "status",
            &[json!("SUCCESS")],
        )
        .await;
    let tracks: Vec<Value> = rec["response"]["sunoData"].as_array().unwrap().clone();
    let mut out = Vec::new();
    for (n, t) in tracks.iter().enumerate() {
        out.push((
            format!("track {n} WAV"),
            bytes(emu, t["audioUrl"].as_str().unwrap()).await,
        ));
        out.push((
            format!("track {n} PNG"),
            bytes(emu, t["imageUrl"].as_str().unwrap()).await,
        ));
    }
    let video = emu
        .post(
            "/api/v1/mp4/generate",
            json!({"taskId": id, "audioId": tracks[0]["id"], "callBackUrl": CALLBACK, "author": "me"}),
        )
        .await;
    assert_eq!(video["code"], 200, "{video}");
    let rec = emu
        .wait_for(
            &format!(
                "/api/v1/mp4/record-info?taskId={}",
                video["data"]["taskId"].as_str().unwrap()
            ),
            "successFlag",
            &[json!("SUCCESS")],
        )
        .await;
    let mp4 = bytes(emu, rec["response"]["videoUrl"].as_str().unwrap()).await;
    out.push(("track 0 FLAC (in the MP4)".to_owned(), flac_info(&mp4)));
    out.push(("track 0 MP4".to_owned(), mp4));
    out
}

#[tokio::test]
async fn both_builds_render_the_same_media_for_a_seed() {
    let flags = ["--seed", "20391"];
    let native = media(&Emu::native(config(&flags)).await).await;
    let other = media(&Emu::start(&flags).await).await;
    assert_eq!(native.len(), 6);
    let mut differ = Vec::new();
    for ((what, a), (_, b)) in native.iter().zip(&other) {
        assert!(a.len() > 40, "{what}: {} bytes", a.len());
        if a != b {
            differ.push(format!(
                "{what} ({} and {} bytes, first difference at byte {:?})",
                a.len(),
                b.len(),
                a.iter().zip(b).position(|(x, y)| x != y)
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "the builds differ: {}",
        differ.join("; ")
    );
}
