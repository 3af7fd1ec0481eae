//! The music video over HTTP: an MP4 of the chosen track's cover and sound, exactly as long as
//! the track, served with byte ranges (browsers read and seek media by ranges).

mod common;

use common::mp4::{boxes, find};
use common::Emu;
use serde_json::{json, Value};

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap())
}

/// What a player learns first: the movie's time scale and duration, and per track its handler,
/// its sample entry's type and its duration (in its own time scale).
struct Movie {
    timescale: u32,
    duration: u32,
    tracks: Vec<(String, String, u32)>,
    /// Samples in the sound's STREAMINFO.
    flac_samples: u64,
}

fn movie(file: &[u8]) -> Movie {
    let moov = find(file, b"moov");
    let mvhd = find(moov, b"mvhd");
    let mut tracks = Vec::new();
    let mut flac_samples = 0;
    for (_, trak) in boxes(moov).into_iter().filter(|(k, _)| k == b"trak") {
        let mdia = find(trak, b"mdia");
        let handler = String::from_utf8_lossy(&find(mdia, b"hdlr")[8..12]).into_owned();
        let stsd = find(find(find(mdia, b"minf"), b"stbl"), b"stsd");
        assert_eq!(be32(stsd, 4), 1, "{handler}: one sample entry");
        let entry = String::from_utf8_lossy(&stsd[12..16]).into_owned();
        if entry == "fLaC" {
            // dfLa after the 28-byte audio entry; STREAMINFO after its 4-byte header.
            let info = &find(&stsd[16 + 28..], b"dfLa")[8..];
            flac_samples = (u64::from(info[13] & 0x0F) << 32) | u64::from(be32(info, 14));
        }
        tracks.push((handler, entry, be32(find(mdia, b"mdhd"), 16)));
    }
    Movie {
        timescale: be32(mvhd, 12),
        duration: be32(mvhd, 16),
        tracks,
        flac_samples,
    }
}

async fn video_of(emu: &Emu, task_id: &str, audio_id: &str) -> Vec<u8> {
    let v = emu
        .post(
            "/api/v1/mp4/generate",
            json!({"taskId": task_id, "audioId": audio_id, "callBackUrl": emu.inbox_url("mv"), "author": "me"}),
        )
        .await;
    assert_eq!(v["code"], 200, "{v}");
    let rec = emu
        .wait_for(
            &format!(
                "/api/v1/mp4/record-info?taskId={}",
                v["data"]["taskId"].as_str().unwrap()
            ),
            "successFlag",
            &[json!("SUCCESS")],
        )
        .await;
    let url = rec["response"]["videoUrl"].as_str().unwrap();
    let res = emu.public(url).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "video/mp4");
    let whole = res.bytes().await.unwrap().to_vec();
    // A browser asks for ranges of it, to start early and to seek.
    let part = emu
        .http
        .get(url)
        .header("range", "bytes=100-199")
        .send()
        .await
        .unwrap();
    assert_eq!(part.status(), 206);
    assert_eq!(
        part.headers()["content-range"],
        format!("bytes 100-199/{}", whole.len()).as_str()
    );
    assert_eq!(part.bytes().await.unwrap(), whole[100..200]);
    whole
}

#[tokio::test]
async fn a_tracks_video_holds_its_cover_and_its_sound_for_its_whole_length() {
    let emu = Emu::start(&[]).await;
    let music = emu.finished("Film me").await;
    let task_id = music["taskId"].as_str().unwrap();
    let tracks: Vec<Value> = music["response"]["sunoData"].as_array().unwrap().clone();
    let mut pictures = Vec::new();
    for track in &tracks {
        let audio = emu
            .public(track["audioUrl"].as_str().unwrap())
            .await
            .bytes()
            .await
            .unwrap();
        let wav = hound::WavReader::new(std::io::Cursor::new(&audio[..])).unwrap();
        let (frames, rate) = (wav.duration(), wav.spec().sample_rate);

        let mp4 = video_of(&emu, task_id, track["id"].as_str().unwrap()).await;
        let m = movie(&mp4);
        assert_eq!(
            (m.timescale, m.duration),
            (rate, frames),
            "the video lasts as long as its track, to the sample"
        );
        assert_eq!(
            m.tracks,
            [
                ("vide".to_owned(), "avc1".to_owned(), frames),
                ("soun".to_owned(), "fLaC".to_owned(), frames)
            ]
        );
        assert_eq!(m.flac_samples, u64::from(frames));
        // A picture of raw samples (256 x 256 in 4:2:0 is 98,304 bytes) and the sound.
        assert!(mp4.len() > 98_304, "{} bytes", mp4.len());
        pictures.push(find(&mp4, b"mdat")[..2048].to_vec());
    }
    assert_eq!(pictures.len(), 2);
    assert_ne!(
        pictures[0], pictures[1],
        "each track's video shows its own cover"
    );
}
