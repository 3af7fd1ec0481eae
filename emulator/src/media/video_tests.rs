//! Tests of the music video, read back by independent readers: the MP4's boxes and sample
//! tables, the H.264 stream bit by bit (down to each raw sample), the FLAC audio decoded to the
//! very samples it was made from.
//! Over 400 lines on purpose: the readers (MP4 boxes, an H.264 bit reader, a FLAC decoder) are the
//! tests' own, so that nothing the video code wrote is trusted to read it back.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::f32::consts::TAU;
use std::io::Cursor;

use super::cover::{cover_rgb, SIZE};
use super::flac::{self, BLOCK};
use super::h264::Picture;
use super::mp4::{music_video, VIDEO_SIDE};
use super::stems::synth_track;
use super::wav::{decode, to_i16};

// ---- Readers ----------------------------------------------------------------------------------

/// Reads bits most significant first.
struct Bits<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bits<'a> {
    fn new(data: &'a [u8]) -> Self {
        Bits { data, pos: 0 }
    }

    fn bit(&mut self) -> u32 {
        let byte = self.data[self.pos / 8];
        self.pos += 1;
        u32::from(byte >> (7 - (self.pos - 1) % 8)) & 1
    }

    fn read(&mut self, n: u32) -> u32 {
        (0..n).fold(0, |acc, _| (acc << 1) | self.bit())
    }

    fn ue(&mut self) -> u32 {
        let mut zeros = 0;
        while self.bit() == 0 {
            zeros += 1;
        }
        ((1u64 << zeros) - 1 + u64::from(self.read(zeros))) as u32
    }

    fn se(&mut self) -> i32 {
        let k = self.ue() as i32;
        if k % 2 == 1 {
            (k + 1) / 2
        } else {
            -(k / 2)
        }
    }

    /// Zero bits to the byte boundary (asserted zero).
    fn align_zeros(&mut self) {
        while !self.pos.is_multiple_of(8) {
            assert_eq!(self.bit(), 0, "alignment bits are zero");
        }
    }

    fn bytes(&mut self, n: usize) -> &'a [u8] {
        assert_eq!(self.pos % 8, 0);
        let at = self.pos / 8;
        self.pos += n * 8;
        &self.data[at..at + n]
    }

    /// `rbsp_trailing_bits` ending the data exactly.
    fn trailing(&mut self) {
        assert_eq!(self.bit(), 1, "rbsp_stop_one_bit");
        self.align_zeros();
        assert_eq!(
            self.pos / 8,
            self.data.len(),
            "nothing after the trailing bits"
        );
    }
}

/// The boxes in `data`, whose sizes must add up to exactly its length.
fn boxes(data: &[u8]) -> Vec<(String, &[u8])> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < data.len() {
        let size = u32::from_be_bytes(data[i..i + 4].try_into().unwrap()) as usize;
        assert!(
            size >= 8 && i + size <= data.len(),
            "box size {size} at {i}"
        );
        out.push((
            String::from_utf8_lossy(&data[i + 4..i + 8]).into_owned(),
            &data[i + 8..i + size],
        ));
        i += size;
    }
    out
}

fn names(data: &[u8]) -> Vec<String> {
    boxes(data).into_iter().map(|b| b.0).collect()
}

/// The payload of the box at `path` (a full box's version and flags included).
fn find<'a>(data: &'a [u8], path: &[&str]) -> &'a [u8] {
    let (first, rest) = path.split_first().unwrap();
    let found = boxes(data)
        .into_iter()
        .find(|(k, _)| k == first)
        .unwrap_or_else(|| panic!("no {first} box"))
        .1;
    if rest.is_empty() {
        found
    } else {
        find(found, rest)
    }
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap())
}

/// A full box's table: entry count at 4, then `width` 32-bit values per entry.
fn table(full_box: &[u8], width: usize) -> Vec<Vec<u32>> {
    let count = be32(full_box, 4) as usize;
    assert_eq!(full_box.len(), 8 + count * width * 4);
    (0..count)
        .map(|e| {
            (0..width)
                .map(|i| be32(full_box, 8 + (e * width + i) * 4))
                .collect()
        })
        .collect()
}

/// What the sample tables of one track say.
struct TrackInfo {
    handler: String,
    tkhd_duration: u32,
    timescale: u32,
    mdhd_duration: u32,
    entry: (String, Vec<u8>),
    /// One per sample, expanded from `stts`.
    durations: Vec<u32>,
    samples: Vec<(usize, usize)>,
    sync: Option<Vec<u32>>,
}

/// The file's movie time scale and duration, its tracks, and the range of `mdat`'s payload.
fn read_mp4(file: &[u8]) -> (u32, u32, Vec<TrackInfo>, std::ops::Range<usize>) {
    assert_eq!(names(file), ["ftyp", "moov", "mdat"]);
    let moov = find(file, &["moov"]);
    assert_eq!(names(moov), ["mvhd", "trak", "trak"]);
    let mvhd = find(moov, &["mvhd"]);
    let tracks = boxes(moov)
        .into_iter()
        .filter(|(k, _)| k == "trak")
        .map(|(_, trak)| {
            let stbl = find(trak, &["mdia", "minf", "stbl"]);
            let stsd = find(stbl, &["stsd"]);
            assert_eq!(be32(stsd, 4), 1, "one sample entry");
            let (kind, entry) = boxes(&stsd[8..]).remove(0);
            let durations = table(find(stbl, &["stts"]), 2)
                .into_iter()
                .flat_map(|e| std::iter::repeat_n(e[1], e[0] as usize))
                .collect::<Vec<_>>();
            let stsz = find(stbl, &["stsz"]);
            assert_eq!(be32(stsz, 4), 0, "sizes in a table");
            let sizes = table(&[&stsz[..4], &stsz[8..]].concat(), 1);
            let offsets = table(find(stbl, &["stco"]), 1);
            assert_eq!(
                table(find(stbl, &["stsc"]), 3),
                [[1, 1, 1]],
                "a chunk a sample"
            );
            assert_eq!(sizes.len(), offsets.len());
            assert_eq!(sizes.len(), durations.len());
            let sync = names(stbl)
                .contains(&"stss".to_owned())
                .then(|| table(find(stbl, &["stss"]), 1).concat());
            let mdhd = find(trak, &["mdia", "mdhd"]);
            TrackInfo {
                handler: String::from_utf8_lossy(&find(trak, &["mdia", "hdlr"])[8..12])
                    .into_owned(),
                tkhd_duration: be32(find(trak, &["tkhd"]), 20),
                timescale: be32(mdhd, 12),
                mdhd_duration: be32(mdhd, 16),
                entry: (kind, entry.to_vec()),
                durations,
                samples: offsets
                    .iter()
                    .zip(&sizes)
                    .map(|(o, s)| (o[0] as usize, s[0] as usize))
                    .collect(),
                sync,
            }
        })
        .collect();
    let mdat_at = file.len() - find(file, &["mdat"]).len();
    (be32(mvhd, 12), be32(mvhd, 16), tracks, mdat_at..file.len())
}

/// The bytes of every sample of a track.
fn samples<'a>(file: &'a [u8], track: &TrackInfo) -> Vec<&'a [u8]> {
    track
        .samples
        .iter()
        .map(|&(at, len)| &file[at..at + len])
        .collect()
}

/// A NAL unit's type and its RBSP (emulation prevention bytes removed).
fn unescape(nal: &[u8]) -> (u8, Vec<u8>) {
    let mut rbsp = Vec::new();
    let mut zeros = 0;
    for &b in &nal[1..] {
        if zeros >= 2 && b == 3 {
            zeros = 0;
            continue;
        }
        assert!(zeros < 2 || b > 3, "a start code inside a NAL unit");
        rbsp.push(b);
        zeros = if b == 0 { zeros + 1 } else { 0 };
    }
    (nal[0] & 31, rbsp)
}

/// The one NAL unit of a length-prefixed (4-byte) sample.
fn sample_nal(sample: &[u8]) -> &[u8] {
    assert_eq!(be32(sample, 0) as usize, sample.len() - 4, "one NAL unit");
    &sample[4..]
}

/// A FLAC stream decoded from its frames: the samples of each channel, checking each frame's
/// header, CRC-8, CRC-16, and that the frames are numbered 0, 1, 2...
fn flac_decode(frames: &[&[u8]], channels: usize) -> Vec<Vec<i16>> {
    let mut out = vec![Vec::new(); channels];
    for (number, frame) in frames.iter().enumerate() {
        let mut b = Bits::new(frame);
        assert_eq!(b.read(16), 0xFFF8, "sync code, fixed block size");
        assert_eq!(
            b.read(4),
            0b0111,
            "16-bit block size at the end of the header"
        );
        let _rate_code = b.read(4);
        assert_eq!(b.read(4) as usize, channels - 1, "independent channels");
        assert_eq!(b.read(3), 0b100, "16 bits per sample");
        assert_eq!(b.bit(), 0);
        // The frame number in FLAC's UTF-8 form.
        let lead = b.read(8);
        let extra = (lead << 24).leading_ones().saturating_sub(1);
        let payload = if extra == 0 {
            0x7F
        } else {
            0xFF >> (extra + 2)
        };
        let mut n = u64::from(lead & payload);
        for _ in 0..extra {
            assert_eq!(b.read(2), 0b10);
            n = (n << 6) | u64::from(b.read(6));
        }
        assert_eq!(n, number as u64, "frame number");
        let len = b.read(16) as usize + 1;
        let header_len = b.pos / 8;
        assert_eq!(b.read(8), u32::from(crc8(&frame[..header_len])), "CRC-8");
        for channel in out.iter_mut() {
            channel.extend(flac_subframe(&mut b, len));
        }
        b.align_zeros();
        let body = b.pos / 8;
        assert_eq!(body + 2, frame.len(), "the CRC-16 ends the frame");
        assert_eq!(b.read(16), u32::from(crc16(&frame[..body])), "CRC-16");
    }
    out
}

fn flac_subframe(b: &mut Bits, len: usize) -> Vec<i16> {
    assert_eq!(b.bit(), 0, "subframe padding");
    let kind = b.read(6);
    assert_eq!(b.bit(), 0, "no wasted bits");
    let sample = |b: &mut Bits| b.read(16) as u16 as i16;
    match kind {
        0 => vec![sample(b); len],
        1 => (0..len).map(|_| sample(b)).collect(),
        8..=12 => {
            let order = (kind - 8) as usize;
            let mut x: Vec<i32> = (0..order).map(|_| i32::from(sample(b))).collect();
            assert_eq!(b.read(2), 0, "Rice coding, 4-bit parameters");
            let partition_order = b.read(4);
            let parts = 1usize << partition_order;
            let mut residual = Vec::with_capacity(len);
            for p in 0..parts {
                let k = b.read(4);
                assert!(k < 15, "no escaped partitions");
                let n = (len >> partition_order) - if p == 0 { order } else { 0 };
                for _ in 0..n {
                    let mut q = 0u32;
                    while b.bit() == 0 {
                        q += 1;
                    }
                    let u = (q << k) | b.read(k);
                    residual.push((u >> 1) as i32 ^ -((u & 1) as i32));
                }
            }
            for r in residual {
                let i = x.len();
                let prediction = match order {
                    0 => 0,
                    1 => x[i - 1],
                    2 => 2 * x[i - 1] - x[i - 2],
                    3 => 3 * x[i - 1] - 3 * x[i - 2] + x[i - 3],
                    _ => 4 * x[i - 1] - 6 * x[i - 2] + 4 * x[i - 3] - x[i - 4],
                };
                x.push(prediction + r);
            }
            x.into_iter()
                .map(|v| i16::try_from(v).expect("a 16-bit sample"))
                .collect()
        }
        other => panic!("unexpected subframe type {other}"),
    }
}

fn crc8(bytes: &[u8]) -> u8 {
    let mut crc = 0u8;
    for &byte in bytes {
        for i in (0..8).rev() {
            let top = (crc >> 7) ^ ((byte >> i) & 1);
            crc = (crc << 1) ^ if top == 1 { 0x07 } else { 0 };
        }
    }
    crc
}

fn crc16(bytes: &[u8]) -> u16 {
    let mut crc = 0u16;
    for &byte in bytes {
        for i in (0..8).rev() {
            let top = (crc >> 15) ^ u16::from((byte >> i) & 1);
            crc = (crc << 1) ^ if top == 1 { 0x8005 } else { 0 };
        }
    }
    crc
}

/// STREAMINFO's fields: (min block, max block, min frame, max frame, rate, channels, bits, total).
fn streaminfo(info: &[u8]) -> (u32, u32, u32, u32, u32, u32, u32, u64) {
    let mut b = Bits::new(info);
    let fields = (
        b.read(16),
        b.read(16),
        b.read(24),
        b.read(24),
        b.read(20),
        b.read(3) + 1,
        b.read(5) + 1,
        (u64::from(b.read(4)) << 32) | u64::from(b.read(32)),
    );
    assert_eq!(&info[18..], &[0; 16], "MD5 left unknown");
    fields
}

/// A 16-bit WAV of the given channels at `rate`.
fn wav_of(channels: &[Vec<i16>], rate: u32) -> Vec<u8> {
    let spec = hound::WavSpec {
        channels: channels.len() as u16,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut out = Cursor::new(Vec::new());
    let mut w = hound::WavWriter::new(&mut out, spec).unwrap();
    for i in 0..channels[0].len() {
        for c in channels {
            w.write_sample(c[i]).unwrap();
        }
    }
    w.finalize().unwrap();
    out.into_inner()
}

fn tone(len: usize, rate: f32, freq: f32, level: f32) -> Vec<i16> {
    (0..len)
        .map(|i| to_i16(level * (TAU * freq * i as f32 / rate).sin()))
        .collect()
}

/// Deterministic white noise at full scale.
fn noise(len: usize, seed: u64) -> Vec<i16> {
    let mut s = seed | 1;
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 48) as u16 as i16
        })
        .collect()
}

// ---- The MP4 ----------------------------------------------------------------------------------

#[test]
fn a_music_video_is_an_mp4_of_a_video_and_a_sound_track_as_long_as_the_track() {
    let wav = synth_track(7, 7.5, None);
    let frames = decode(&wav, 60.0).unwrap().frames() as u32;
    let m = music_video(&wav, 3);
    // WHATWG MIME sniffing answers video/mp4: ftyp's size a multiple of 4, a brand "mp4?".
    assert_eq!(&m[4..8], b"ftyp");
    assert_eq!(be32(&m, 0) % 4, 0);
    assert_eq!(&m[8..12], b"mp42");

    let (timescale, duration, tracks, mdat) = read_mp4(&m);
    assert_eq!(timescale, 22_050, "the movie counts in audio samples");
    assert_eq!(
        duration, frames,
        "the movie lasts as long as the track, to the sample"
    );
    let [video, audio] = &tracks[..] else {
        panic!("two tracks")
    };
    assert_eq!(
        (video.handler.as_str(), audio.handler.as_str()),
        ("vide", "soun")
    );
    assert_eq!(
        (video.entry.0.as_str(), audio.entry.0.as_str()),
        ("avc1", "fLaC")
    );
    for t in [video, audio] {
        assert_eq!(t.timescale, 22_050);
        assert_eq!(t.mdhd_duration, frames);
        assert_eq!(t.tkhd_duration, frames);
        assert_eq!(t.durations.iter().sum::<u32>(), frames, "{}", t.handler);
    }
    // A frame a second, the last cut at the track's end (7.5 s: 8 frames, the last half long).
    assert_eq!(
        video.durations,
        [22_050, 22_050, 22_050, 22_050, 22_050, 22_050, 22_050, 11_025]
    );
    assert_eq!(video.sync.as_deref(), Some(&[1][..]), "one key frame");
    // FLAC frames of 4,096 samples, the last one the rest; every one a sync sample.
    let (full, rest) = (frames as usize / BLOCK, frames as usize % BLOCK);
    assert_eq!(audio.durations.len(), full + 1);
    assert!(audio.durations[..full].iter().all(|&d| d == BLOCK as u32));
    assert_eq!(audio.durations[full], rest as u32);
    assert_eq!(audio.sync, None);

    // The samples tile mdat exactly, in time order: a second of video, then its audio.
    let mut spans: Vec<(usize, usize, &str, usize)> = Vec::new();
    for t in [video, audio] {
        let mut start = 0;
        for (&(at, len), &d) in t.samples.iter().zip(&t.durations) {
            spans.push((at, len, t.handler.as_str(), start));
            start += d as usize;
        }
    }
    spans.sort();
    let mut at = mdat.start;
    let mut last_time = 0;
    for &(offset, len, _, time) in &spans {
        assert_eq!(offset, at, "no gap, no overlap");
        assert!(time >= last_time, "interleaved by time");
        (at, last_time) = (offset + len, time);
    }
    assert_eq!(at, mdat.end);
    assert_eq!(spans[0].2, "vide", "the picture comes first");
}

#[test]
fn the_sound_track_is_the_tracks_audio_losslessly() {
    for (channels, rate) in [(1, 22_050), (2, 44_100)] {
        let len = rate as usize * 3 + 123;
        let source: Vec<Vec<i16>> = (0..channels)
            .map(|c| tone(len, rate as f32, 220.0 * (c + 1) as f32, 0.6))
            .collect();
        let m = music_video(&wav_of(&source, rate), 1);
        let (_, _, tracks, _) = read_mp4(&m);
        let audio = &tracks[1];
        // The fLaC entry: channels, 16 bits, rate as 16.16; then dfLa with STREAMINFO, last.
        let entry = &audio.entry.1;
        assert_eq!(u16::from_be_bytes([entry[16], entry[17]]), channels as u16);
        assert_eq!(u16::from_be_bytes([entry[18], entry[19]]), 16);
        assert_eq!(be32(entry, 24), rate << 16);
        let (kind, dfla) = boxes(&entry[28..]).remove(0);
        assert_eq!(kind, "dfLa");
        assert_eq!(&dfla[..8], &[0, 0, 0, 0, 0x80, 0, 0, 34]);
        let info = streaminfo(&dfla[8..]);
        let sizes: Vec<u32> = audio.samples.iter().map(|s| s.1 as u32).collect();
        assert_eq!(
            info,
            (
                BLOCK as u32,
                BLOCK as u32,
                *sizes.iter().min().unwrap(),
                *sizes.iter().max().unwrap(),
                rate,
                channels as u32,
                16,
                len as u64
            )
        );
        let decoded = flac_decode(&samples(&m, audio), channels);
        assert_eq!(decoded, source, "{channels} channel(s) at {rate} Hz");
        let raw = len * channels * 2;
        let coded: usize = sizes.iter().map(|&s| s as usize).sum();
        assert!(coded < raw / 2, "a tone compresses: {coded} of {raw} bytes");
    }
}

#[test]
fn music_videos_last_as_long_as_any_track() {
    // Shorter than a frame, exactly a second, a 96 kHz source (brought to 48 kHz, the rate
    // field being 16.16), more channels than two (the first two kept).
    let cases: [(Vec<Vec<i16>>, u32, u32, usize); 4] = [
        (
            vec![tone(2_205, 22_050.0, 440.0, 0.5)],
            22_050,
            22_050,
            2_205,
        ),
        (
            vec![tone(22_050, 22_050.0, 440.0, 0.5)],
            22_050,
            22_050,
            22_050,
        ),
        (
            vec![tone(48_000, 96_000.0, 440.0, 0.5); 2],
            96_000,
            48_000,
            24_000,
        ),
        (
            vec![tone(8_000, 8_000.0, 440.0, 0.5); 4],
            8_000,
            8_000,
            8_000,
        ),
    ];
    for (source, rate, rate_out, frames) in cases {
        let m = music_video(&wav_of(&source, rate), 9);
        let (timescale, duration, tracks, _) = read_mp4(&m);
        assert_eq!(
            (timescale, duration as usize),
            (rate_out, frames),
            "{rate} Hz"
        );
        let video_frames = frames.div_ceil(rate_out as usize);
        assert_eq!(tracks[0].durations.len(), video_frames);
        assert_eq!(tracks[1].entry.1[17], source.len().min(2) as u8, "channels");
        for t in &tracks {
            assert_eq!(t.durations.iter().sum::<u32>() as usize, frames);
        }
    }
}

#[test]
fn music_videos_are_deterministic_and_refuse_what_is_not_audio() {
    let wav = synth_track(11, 2.5, None);
    let a = music_video(&wav, 1);
    assert_eq!(a, music_video(&wav, 1));
    // Another cover: another picture, the same sound.
    let b = music_video(&wav, 2);
    assert_ne!(a, b);
    let (_, _, ta, _) = read_mp4(&a);
    let (_, _, tb, _) = read_mp4(&b);
    assert_ne!(samples(&a, &ta[0])[0], samples(&b, &tb[0])[0]);
    assert_eq!(samples(&a, &ta[1]), samples(&b, &tb[1]));
    assert!(music_video(b"not a wav file", 1).is_empty());
    assert!(
        music_video(&wav_of(&[vec![]], 22_050), 1).is_empty(),
        "no samples"
    );
    assert!(music_video(&[], 1).is_empty());
}

// ---- The H.264 stream -------------------------------------------------------------------------

/// The SPS and PPS of an `avcC` box, checked field by field.
fn avcc_parameter_sets(avcc: &[u8]) -> (Vec<u8>, Vec<u8>) {
    assert_eq!(&avcc[..6], &[1, 66, 0xC0, 30, 0xFF, 0xE1]);
    let sps_len = u16::from_be_bytes([avcc[6], avcc[7]]) as usize;
    let sps = avcc[8..8 + sps_len].to_vec();
    let rest = &avcc[8 + sps_len..];
    assert_eq!(rest[0], 1, "one PPS");
    let pps_len = u16::from_be_bytes([rest[1], rest[2]]) as usize;
    assert_eq!(rest.len(), 3 + pps_len, "Baseline: nothing after the PPS");
    (sps, rest[3..].to_vec())
}

#[test]
fn the_picture_is_the_cover_in_raw_h264_macroblocks() {
    let wav = synth_track(5, 3.2, None);
    let m = music_video(&wav, 42);
    let (_, _, tracks, _) = read_mp4(&m);
    let entry = &tracks[0].entry.1;
    assert_eq!(
        (
            u16::from_be_bytes([entry[24], entry[25]]) as usize,
            u16::from_be_bytes([entry[26], entry[27]]) as usize
        ),
        (VIDEO_SIDE, VIDEO_SIDE)
    );
    let (kind, avcc) = boxes(&entry[78..]).remove(0);
    assert_eq!(kind, "avcC");
    let (sps, pps) = avcc_parameter_sets(avcc);

    let (nal_type, rbsp) = unescape(&sps);
    assert_eq!((sps[0] >> 5, nal_type), (3, 7));
    let mut b = Bits::new(&rbsp);
    assert_eq!((b.read(8), b.read(8), b.read(8)), (66, 0xC0, 30));
    assert_eq!(b.ue(), 0, "sps id");
    let log2_max_frame_num = b.ue() + 4;
    assert_eq!(b.ue(), 2, "output order is decoding order");
    assert_eq!(b.ue(), 1, "one reference frame");
    assert_eq!(b.bit(), 0);
    let mbs = VIDEO_SIDE as u32 / 16;
    assert_eq!((b.ue() + 1, b.ue() + 1), (mbs, mbs), "size in macroblocks");
    assert_eq!(
        (b.bit(), b.bit(), b.bit()),
        (1, 1, 0),
        "frames, 8x8 inference, no crop"
    );
    assert_eq!(b.bit(), 1, "VUI");
    assert_eq!(
        (b.bit(), b.bit(), b.bit()),
        (0, 0, 1),
        "signal type present"
    );
    assert_eq!(
        (b.read(3), b.bit(), b.bit()),
        (5, 0, 1),
        "limited range, colours named"
    );
    assert_eq!(
        (b.read(8), b.read(8), b.read(8)),
        (1, 13, 1),
        "BT.709 primaries, sRGB transfer, BT.709 matrix"
    );
    assert_eq!(
        (b.bit(), b.bit(), b.bit(), b.bit(), b.bit()),
        (0, 0, 0, 0, 0)
    );
    assert_eq!((b.bit(), b.bit()), (1, 1), "bitstream restriction");
    assert_eq!((b.ue(), b.ue(), b.ue(), b.ue()), (0, 0, 16, 16));
    assert_eq!(
        (b.ue(), b.ue()),
        (0, 1),
        "no reordering, one frame buffered"
    );
    b.trailing();

    let (nal_type, rbsp) = unescape(&pps);
    assert_eq!(nal_type, 8);
    let mut b = Bits::new(&rbsp);
    assert_eq!(
        (b.ue(), b.ue(), b.bit(), b.bit(), b.ue()),
        (0, 0, 0, 0, 0),
        "CAVLC"
    );
    assert_eq!((b.ue(), b.ue(), b.bit(), b.read(2)), (0, 0, 0, 0));
    assert_eq!((b.se(), b.se(), b.se()), (0, 0, 0));
    assert_eq!(
        (b.bit(), b.bit(), b.bit()),
        (1, 0, 0),
        "deblocking controllable"
    );
    b.trailing();

    let frames = samples(&m, &tracks[0]);
    assert_eq!(frames.len(), 4);
    // The IDR frame: every macroblock I_PCM, holding the cover's samples.
    let (nal_type, rbsp) = unescape(sample_nal(frames[0]));
    assert_eq!(nal_type, 5);
    let mut b = Bits::new(&rbsp);
    assert_eq!(
        (b.ue(), b.ue(), b.ue()),
        (0, 7, 0),
        "first MB, I slice, pps"
    );
    assert_eq!(b.read(log2_max_frame_num), 0, "frame_num");
    assert_eq!((b.ue(), b.bit(), b.bit()), (0, 0, 0), "idr_pic_id, marking");
    assert_eq!((b.se(), b.ue()), (0, 1), "QP delta, deblocking off");
    let picture = Picture::from_rgb(&cover_rgb(42, 0), SIZE, VIDEO_SIDE);
    let side = VIDEO_SIDE;
    let (mut luma, mut cb, mut cr) = (
        vec![0u8; side * side],
        vec![0u8; side * side / 4],
        vec![0u8; side * side / 4],
    );
    for mb in 0..(side / 16) * (side / 16) {
        let (mx, my) = (mb % (side / 16), mb / (side / 16));
        assert_eq!(b.ue(), 25, "I_PCM");
        b.align_zeros();
        for y in 0..16 {
            let at = (my * 16 + y) * side + mx * 16;
            luma[at..at + 16].copy_from_slice(b.bytes(16));
        }
        for plane in [&mut cb, &mut cr] {
            for y in 0..8 {
                let at = (my * 8 + y) * side / 2 + mx * 8;
                plane[at..at + 8].copy_from_slice(b.bytes(8));
            }
        }
    }
    b.trailing();
    assert_eq!(luma, picture.luma);
    assert_eq!(cb, picture.cb);
    assert_eq!(cr, picture.cr);
    // The frames after it: P slices skipping every macroblock, numbered 1, 2, 3.
    for (i, frame) in frames.iter().enumerate().skip(1) {
        let (nal_type, rbsp) = unescape(sample_nal(frame));
        assert_eq!(
            (frame[4] >> 5 > 0, nal_type),
            (true, 1),
            "a reference P frame"
        );
        let mut b = Bits::new(&rbsp);
        assert_eq!(
            (b.ue(), b.ue(), b.ue()),
            (0, 5, 0),
            "first MB, P slice, pps"
        );
        assert_eq!(b.read(log2_max_frame_num) as usize, i, "frame_num");
        assert_eq!((b.bit(), b.bit(), b.bit()), (0, 0, 0), "no overrides");
        assert_eq!((b.se(), b.ue()), (0, 1));
        assert_eq!(b.ue() as usize, (side / 16) * (side / 16), "all skipped");
        b.trailing();
        assert!(
            frame.len() <= 12,
            "a repeated frame costs {} bytes",
            frame.len()
        );
    }
}

#[test]
fn the_picture_is_limited_range_bt709_of_the_covers_pixels_halved() {
    // A 32x32 image: white left half, red right half, halved to one 16x16 macroblock.
    let mut rgb = Vec::new();
    for _y in 0..32 {
        for x in 0..32 {
            rgb.extend_from_slice(if x < 16 {
                &[255, 255, 255]
            } else {
                &[255, 0, 0]
            });
        }
    }
    let p = Picture::from_rgb(&rgb, 32, 16);
    assert_eq!((p.width(), p.height()), (16, 16));
    for row in p.luma.chunks(16) {
        assert_eq!(row[..8], [235; 8], "white");
        assert_eq!(row[8..], [63; 8], "red: 16 + 219 x 0.2126");
    }
    for (cb, cr) in p.cb.chunks(8).zip(p.cr.chunks(8)) {
        assert_eq!(
            (cb[..4].to_vec(), cr[..4].to_vec()),
            (vec![128; 4], vec![128; 4])
        );
        assert_eq!(
            (cb[4..].to_vec(), cr[4..].to_vec()),
            (vec![102; 4], vec![240; 4])
        );
    }
    // The cover: each output pixel averages a 2x2 square of it.
    let cover = cover_rgb(8, 0);
    let p = Picture::from_rgb(&cover, SIZE, VIDEO_SIDE);
    let (x, y) = (100, 37);
    let avg = |c: usize| {
        [(0, 0), (1, 0), (0, 1), (1, 1)]
            .iter()
            .map(|(dx, dy)| f32::from(cover[((2 * y + dy) * SIZE + 2 * x + dx) * 3 + c]))
            .sum::<f32>()
            / 4.0
            / 255.0
    };
    let want = 16.0 + 219.0 * (0.2126 * avg(0) + 0.7152 * avg(1) + 0.0722 * avg(2));
    assert_eq!(p.luma[y * VIDEO_SIDE + x], want.round() as u8);
}

// ---- The FLAC encoder -------------------------------------------------------------------------

#[test]
fn flac_round_trips_every_kind_of_block() {
    let cases: Vec<(&str, Vec<Vec<i16>>)> = vec![
        ("one sample", vec![vec![1234]]),
        ("one block exactly", vec![tone(BLOCK, 8000.0, 300.0, 0.9)]),
        (
            "silence beside a tone",
            vec![vec![0; 9000], tone(9000, 22050.0, 220.0, 0.5)],
        ),
        ("full-scale noise (verbatim)", vec![noise(5000, 3)]),
        (
            "extremes",
            vec![(0..6000)
                .map(|i| if i % 3 == 0 { i16::MIN } else { i16::MAX })
                .collect()],
        ),
        (
            "odd length",
            vec![tone(BLOCK * 2 + 1, 44100.0, 1000.0, 1.0); 2],
        ),
    ];
    for (what, source) in cases {
        let encoded = flac::encode(&source, 22_050);
        let frames: Vec<&[u8]> = encoded.frames.iter().map(Vec::as_slice).collect();
        assert_eq!(frames.len(), source[0].len().div_ceil(BLOCK), "{what}");
        assert_eq!(flac_decode(&frames, source.len()), source, "{what}");
        let info = streaminfo(&encoded.streaminfo);
        assert_eq!(info.7, source[0].len() as u64, "{what}");
    }
    // Noise cannot be predicted: its frames are no larger than the samples plus the headers.
    let encoded = flac::encode(&[noise(BLOCK, 9)], 22_050);
    assert!(encoded.frames[0].len() <= BLOCK * 2 + 16);
}

#[test]
fn flac_frame_numbers_past_one_byte_use_the_utf8_form() {
    // 300 frames (numbers up to 299 take two bytes); silence codes as constant subframes.
    let source = vec![vec![7i16; BLOCK * 300]];
    let encoded = flac::encode(&source, 8_000);
    assert_eq!(encoded.frames.len(), 300);
    assert_eq!(
        &encoded.frames[200][4..6],
        &[0xC3, 0x88],
        "200 = 0b11_001000"
    );
    let frames: Vec<&[u8]> = encoded.frames.iter().map(Vec::as_slice).collect();
    assert_eq!(flac_decode(&frames, 1), source);
}
