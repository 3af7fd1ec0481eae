//! MP4 music videos: a track's cover as H.264 video and its audio as FLAC, in one ISO-BMFF file
//! (ISO/IEC 14496-12, with the AVC file format and FLAC's "Encapsulation in ISO-BMFF") that
//! browsers play in a `<video>`.

use super::cover::{cover_rgb, SIZE};
use super::flac::{self, Flac};
use super::format::MAX_PROCESS_SECONDS;
use super::h264::{self, Picture};
use super::wav::{decode, resample, scaled_len, Pcm};

/// Side of the video in pixels: the 512-pixel cover halved, 256 macroblocks of raw samples.
pub(super) const VIDEO_SIDE: usize = 256;
/// Track ids, also their order in `moov`.
const VIDEO_ID: u32 = 1;
const AUDIO_ID: u32 = 2;
/// The audio sample entry holds its rate as a 16.16 number: faster sources are brought to this.
const FALLBACK_RATE: u32 = 48_000;

/// A music video of `track` (any WAV): the cover of seed `cover_seed` (style 0, as the track's
/// image) shown for the whole track, one frame a second, and the track's audio, lossless. Every
/// duration in the file is the audio's, in samples. Empty `Vec` when `track` is not audio.
pub fn music_video(track: &[u8], cover_seed: u64) -> Vec<u8> {
    let Some(pcm) = decode(track, MAX_PROCESS_SECONDS) else {
        return Vec::new();
    };
    if pcm.frames() == 0 {
        return Vec::new();
    }
    let (rate, channels) = audio_channels(&pcm);
    let audio = flac::encode(&channels, rate);
    let picture = Picture::from_rgb(&cover_rgb(cover_seed, 0), SIZE, VIDEO_SIDE);
    let video = video_track(&picture, audio.samples as u64, rate);
    mux(&[video, audio_track(audio, rate, channels.len())], rate)
}

/// At most two channels (as the WAV conversion keeps), 16-bit, at a rate the sample entry holds.
fn audio_channels(pcm: &Pcm) -> (u32, Vec<Vec<i16>>) {
    let rate = if pcm.rate > u32::from(u16::MAX) {
        FALLBACK_RATE
    } else {
        pcm.rate
    };
    let len = scaled_len(pcm.frames(), pcm.rate, rate);
    let channels = (0..pcm.channels.clamp(1, 2))
        .map(|c| {
            let samples = pcm.channel(c);
            let samples = if rate == pcm.rate {
                samples
            } else {
                resample(&samples, pcm.rate, rate, len)
            };
            samples.into_iter().map(to_pcm16).collect()
        })
        .collect();
    (rate, channels)
}

/// The inverse of how a 16-bit WAV is read (`v / 32768`), so its samples come through unchanged.
fn to_pcm16(s: f32) -> i16 {
    (s * 32768.0).round().clamp(-32768.0, 32767.0) as i16
}

/// One track of the file: its samples in decoding order, each sample's duration (in the
/// movie's time scale, the audio's rate) and the boxes that describe them.
struct Track {
    id: u32,
    handler: [u8; 4],
    name: &'static str,
    /// `stsd`'s one entry.
    sample_entry: Vec<u8>,
    /// `vmhd` or `smhd`.
    media_header: Vec<u8>,
    /// Pixel size for `tkhd`, zero for sound.
    size: (u32, u32),
    volume: u16,
    samples: Vec<Vec<u8>>,
    durations: Vec<u32>,
    /// 1-based numbers of the samples decoding can start at; `None` when it can at every one.
    sync: Option<Vec<u32>>,
}

impl Track {
    fn duration(&self) -> u64 {
        self.durations.iter().map(|&d| u64::from(d)).sum()
    }
}

/// The picture as a frame a second for `samples` audio samples at `rate`: the first frame
/// carries the picture, the others repeat it; the last is cut to end with the audio.
fn video_track(picture: &Picture, samples: u64, rate: u32) -> Track {
    let count = samples.div_ceil(u64::from(rate)).max(1);
    let length_prefixed = |nal: Vec<u8>| [&(nal.len() as u32).to_be_bytes()[..], &nal].concat();
    let frames = (0..count)
        .map(|i| {
            length_prefixed(if i == 0 {
                h264::idr_frame(picture)
            } else {
                h264::repeat_frame(picture, i as u32)
            })
        })
        .collect();
    let durations = (0..count)
        .map(|i| (samples - i * u64::from(rate)).min(u64::from(rate)) as u32)
        .collect();
    let (w, h) = (picture.width() as u16, picture.height() as u16);
    let (sps, pps) = (h264::sps(picture), h264::pps());
    let mut avcc = vec![
        1,
        h264::PROFILE,
        h264::CONSTRAINTS,
        h264::LEVEL,
        0xFF, // 4-byte NAL lengths
        0xE1, // one SPS
    ];
    avcc.extend_from_slice(&(sps.len() as u16).to_be_bytes());
    avcc.extend_from_slice(&sps);
    avcc.push(1); // one PPS
    avcc.extend_from_slice(&(pps.len() as u16).to_be_bytes());
    avcc.extend_from_slice(&pps);
    let mut entry = sample_entry_start();
    entry.extend_from_slice(&[0; 16]); // pre_defined, reserved
    entry.extend_from_slice(&w.to_be_bytes());
    entry.extend_from_slice(&h.to_be_bytes());
    entry.extend_from_slice(&0x0048_0000u32.to_be_bytes()); // 72 dpi
    entry.extend_from_slice(&0x0048_0000u32.to_be_bytes());
    entry.extend_from_slice(&[0; 4]);
    entry.extend_from_slice(&1u16.to_be_bytes()); // frame_count
    entry.extend_from_slice(&[0; 32]); // compressorname
    entry.extend_from_slice(&0x0018u16.to_be_bytes()); // depth: colour, no alpha
    entry.extend_from_slice(&(-1i16).to_be_bytes());
    entry.extend(mp4_box(b"avcC", &avcc));
    Track {
        id: VIDEO_ID,
        handler: *b"vide",
        name: "VideoHandler",
        sample_entry: mp4_box(b"avc1", &entry),
        media_header: mp4_full_box(b"vmhd", 0, 1, &[0; 8]),
        size: (u32::from(w), u32::from(h)),
        volume: 0,
        samples: frames,
        durations,
        sync: Some(vec![1]),
    }
}

/// The FLAC frames as samples, under a `fLaC` entry whose `dfLa` box holds STREAMINFO.
fn audio_track(audio: Flac, rate: u32, channels: usize) -> Track {
    let mut entry = sample_entry_start();
    entry.extend_from_slice(&[0; 8]);
    entry.extend_from_slice(&(channels as u16).to_be_bytes());
    entry.extend_from_slice(&16u16.to_be_bytes()); // sample size
    entry.extend_from_slice(&[0; 4]);
    entry.extend_from_slice(&(rate << 16).to_be_bytes());
    // One metadata block, the last: STREAMINFO (type 0) of 34 bytes.
    let dfla = [&[0x80, 0, 0, 34][..], &audio.streaminfo].concat();
    entry.extend(mp4_full_box(b"dfLa", 0, 0, &dfla));
    Track {
        id: AUDIO_ID,
        handler: *b"soun",
        name: "SoundHandler",
        sample_entry: mp4_box(b"fLaC", &entry),
        media_header: mp4_full_box(b"smhd", 0, 0, &[0; 4]),
        size: (0, 0),
        volume: 0x0100,
        durations: (0..audio.frames.len())
            .map(|i| audio.frame_len(i) as u32)
            .collect(),
        samples: audio.frames,
        sync: None,
    }
}

/// The fields every sample entry starts with: six reserved bytes, `data_reference_index` 1.
fn sample_entry_start() -> Vec<u8> {
    vec![0, 0, 0, 0, 0, 0, 0, 1]
}

/// `ftyp`, `moov` (before the data, so playback can start while the rest downloads), `mdat`
/// with the tracks' samples interleaved by time, each its own chunk.
fn mux(tracks: &[Track; 2], timescale: u32) -> Vec<u8> {
    let mut order: Vec<(u64, usize, usize)> = Vec::new();
    for (t, track) in tracks.iter().enumerate() {
        let mut start = 0u64;
        for (s, d) in track.durations.iter().enumerate() {
            order.push((start, t, s));
            start += u64::from(*d);
        }
    }
    order.sort_unstable();
    // Offsets within the mdat payload, per track and sample.
    let mut offsets: Vec<Vec<u64>> = tracks.iter().map(|t| vec![0; t.samples.len()]).collect();
    let mut at = 0u64;
    for &(_, t, s) in &order {
        if let (Some(o), Some(sample)) = (
            offsets.get_mut(t).and_then(|o| o.get_mut(s)),
            tracks.get(t).and_then(|tr| tr.samples.get(s)),
        ) {
            *o = at;
            at += sample.len() as u64;
        }
    }
    let ftyp = ftyp();
    // The moov's size does not depend on the offsets' values: measure it, then place the data.
    let base = (ftyp.len() + moov(tracks, &offsets, 0, timescale).len() + 8) as u64;
    let moov = moov(tracks, &offsets, base, timescale);
    let mut out = Vec::with_capacity(base as usize + at as usize);
    out.extend(ftyp);
    out.extend(moov);
    out.extend_from_slice(&(8 + at as u32).to_be_bytes());
    out.extend_from_slice(b"mdat");
    for &(_, t, s) in &order {
        if let Some(sample) = tracks.get(t).and_then(|tr| tr.samples.get(s)) {
            out.extend_from_slice(sample);
        }
    }
    out
}

/// Major brand `mp42` (browsers' content sniffing answers video/mp4), with `isom` and `avc1`.
fn ftyp() -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(b"mp42");
    b.extend_from_slice(&0u32.to_be_bytes());
    for brand in [b"mp42", b"isom", b"mp41", b"avc1"] {
        b.extend_from_slice(brand);
    }
    mp4_box(b"ftyp", &b)
}

fn moov(tracks: &[Track; 2], offsets: &[Vec<u64>], base: u64, timescale: u32) -> Vec<u8> {
    let duration = tracks.iter().map(Track::duration).max().unwrap_or(0) as u32;
    let mut mvhd = Vec::new();
    mvhd.extend_from_slice(&[0; 8]); // creation, modification time
    mvhd.extend_from_slice(&timescale.to_be_bytes());
    mvhd.extend_from_slice(&duration.to_be_bytes());
    mvhd.extend_from_slice(&0x0001_0000u32.to_be_bytes()); // rate 1.0
    mvhd.extend_from_slice(&0x0100u16.to_be_bytes()); // volume 1.0
    mvhd.extend_from_slice(&[0; 10]);
    MATRIX
        .iter()
        .for_each(|m| mvhd.extend_from_slice(&m.to_be_bytes()));
    mvhd.extend_from_slice(&[0; 24]);
    mvhd.extend_from_slice(&(AUDIO_ID + 1).to_be_bytes()); // next track id
    let mut body = mp4_full_box(b"mvhd", 0, 0, &mvhd);
    for (track, offsets) in tracks.iter().zip(offsets) {
        body.extend(trak(track, offsets, base, timescale));
    }
    mp4_box(b"moov", &body)
}

fn trak(track: &Track, offsets: &[u64], base: u64, timescale: u32) -> Vec<u8> {
    let duration = track.duration() as u32;
    let mut tkhd = Vec::new();
    tkhd.extend_from_slice(&[0; 8]); // creation, modification time
    tkhd.extend_from_slice(&track.id.to_be_bytes());
    tkhd.extend_from_slice(&[0; 4]);
    tkhd.extend_from_slice(&duration.to_be_bytes());
    tkhd.extend_from_slice(&[0; 8]);
    tkhd.extend_from_slice(&[0; 4]); // layer, alternate group
    tkhd.extend_from_slice(&track.volume.to_be_bytes());
    tkhd.extend_from_slice(&[0; 2]);
    MATRIX
        .iter()
        .for_each(|m| tkhd.extend_from_slice(&m.to_be_bytes()));
    tkhd.extend_from_slice(&(track.size.0 << 16).to_be_bytes());
    tkhd.extend_from_slice(&(track.size.1 << 16).to_be_bytes());
    let tkhd = mp4_full_box(b"tkhd", 0, 3, &tkhd); // enabled, in the movie

    let mut mdhd = Vec::new();
    mdhd.extend_from_slice(&[0; 8]);
    mdhd.extend_from_slice(&timescale.to_be_bytes());
    mdhd.extend_from_slice(&duration.to_be_bytes());
    mdhd.extend_from_slice(&0x55C4u16.to_be_bytes()); // language "und"
    mdhd.extend_from_slice(&[0; 2]);
    let mdhd = mp4_full_box(b"mdhd", 0, 0, &mdhd);

    let mut hdlr = Vec::new();
    hdlr.extend_from_slice(&[0; 4]);
    hdlr.extend_from_slice(&track.handler);
    hdlr.extend_from_slice(&[0; 12]);
    hdlr.extend_from_slice(track.name.as_bytes());
    hdlr.push(0);
    let hdlr = mp4_full_box(b"hdlr", 0, 0, &hdlr);

    let url = mp4_full_box(b"url ", 0, 1, &[]); // the data is in this file
    let dref = mp4_full_box(b"dref", 0, 0, &[&1u32.to_be_bytes()[..], &url].concat());
    let dinf = mp4_box(b"dinf", &dref);
    let minf = mp4_box(
        b"minf",
        &[track.media_header.clone(), dinf, stbl(track, offsets, base)].concat(),
    );
    let mdia = mp4_box(b"mdia", &[mdhd, hdlr, minf].concat());
    mp4_box(b"trak", &[tkhd, mdia].concat())
}

/// The sample tables: entry, durations (run-length), sync samples, one sample per chunk, sizes,
/// chunk offsets.
fn stbl(track: &Track, offsets: &[u64], base: u64) -> Vec<u8> {
    let stsd = mp4_full_box(
        b"stsd",
        0,
        0,
        &[&1u32.to_be_bytes()[..], &track.sample_entry].concat(),
    );
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &d in &track.durations {
        match runs.last_mut() {
            Some((count, delta)) if *delta == d => *count += 1,
            _ => runs.push((1, d)),
        }
    }
    let stts = mp4_full_box(
        b"stts",
        0,
        0,
        &counted(runs.iter().flat_map(|&(c, d)| [c, d]), runs.len()),
    );
    let stss = track
        .sync
        .as_ref()
        .map(|sync| mp4_full_box(b"stss", 0, 0, &counted(sync.iter().copied(), sync.len())));
    let stsc = mp4_full_box(b"stsc", 0, 0, &counted([1, 1, 1], 1));
    let mut stsz = 0u32.to_be_bytes().to_vec(); // sizes differ: a table follows
    stsz.extend(counted(
        track.samples.iter().map(|s| s.len() as u32),
        track.samples.len(),
    ));
    let stsz = mp4_full_box(b"stsz", 0, 0, &stsz);
    let stco = mp4_full_box(
        b"stco",
        0,
        0,
        &counted(offsets.iter().map(|&o| (base + o) as u32), offsets.len()),
    );
    let mut body = [stsd, stts].concat();
    body.extend(stss.unwrap_or_default());
    body.extend([stsc, stsz, stco].concat());
    mp4_box(b"stbl", &body)
}

/// A table as sample tables hold them: its entry count, then big-endian 32-bit values.
fn counted(values: impl IntoIterator<Item = u32>, entries: usize) -> Vec<u8> {
    let mut out = (entries as u32).to_be_bytes().to_vec();
    values
        .into_iter()
        .for_each(|v| out.extend_from_slice(&v.to_be_bytes()));
    out
}

/// One ISO-BMFF box: 32-bit big-endian size, four-character type, payload.
fn mp4_box(kind: &[u8; 4], payload: &[u8]) -> Vec<u8> {
    let mut b = Vec::with_capacity(8 + payload.len());
    b.extend_from_slice(
        &u32::try_from(8 + payload.len())
            .unwrap_or(u32::MAX)
            .to_be_bytes(),
    );
    b.extend_from_slice(kind);
    b.extend_from_slice(payload);
    b
}

/// A "full box": version and flags precede the payload.
fn mp4_full_box(kind: &[u8; 4], version: u8, flags: u32, payload: &[u8]) -> Vec<u8> {
    let mut p = Vec::with_capacity(4 + payload.len());
    p.push(version);
    p.extend_from_slice(&flags.to_be_bytes()[1..]);
    p.extend_from_slice(payload);
    mp4_box(kind, &p)
}

/// Identity transformation matrix used by mvhd and tkhd.
const MATRIX: [u32; 9] = [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000];
