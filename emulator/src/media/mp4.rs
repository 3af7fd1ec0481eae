//! MP4: a minimal valid container (one still video frame) for music videos.

use super::rng::Rng;
/// One ISO-BMFF box: 32-bit big-endian size, four-character type, payload.
pub(super) fn mp4_box(kind: &[u8; 4], payload: &[u8]) -> Vec<u8> {
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
pub(super) fn mp4_full_box(kind: &[u8; 4], version: u8, flags: u32, payload: &[u8]) -> Vec<u8> {
    let mut p = Vec::with_capacity(4 + payload.len());
    p.push(version);
    p.extend_from_slice(&flags.to_be_bytes()[1..]);
    p.extend_from_slice(payload);
    mp4_box(kind, &p)
}

/// Identity transformation matrix used by mvhd and tkhd.
pub(super) const MATRIX: [u32; 9] = [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000];

/// A small, structurally valid MP4 (ISO-BMFF) file: `ftyp` (major brand `mp42`, so
/// browser content sniffing answers video/mp4), `moov` with a movie header and one
/// 320x180 video track whose sample tables are empty, and an `mdat` holding seed-derived
/// bytes. It is NOT a playable video: no encoded frames are present. Deterministic in `seed`.
pub fn tiny_mp4(seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed ^ 0x6D70_3432);
    let duration_ms: u32 = 30_000 + (rng.below(30) as u32) * 1000;
    let (w, h): (u32, u32) = (320, 180);

    let mut ftyp = Vec::new();
    ftyp.extend_from_slice(b"mp42");
    ftyp.extend_from_slice(&0u32.to_be_bytes());
    for brand in [b"mp42", b"isom", b"mp41", b"avc1"] {
        ftyp.extend_from_slice(brand);
    }
    let ftyp = mp4_box(b"ftyp", &ftyp);

    let mut mvhd = Vec::new();
    mvhd.extend_from_slice(&0u32.to_be_bytes()); // creation time
    mvhd.extend_from_slice(&0u32.to_be_bytes()); // modification time
    mvhd.extend_from_slice(&1000u32.to_be_bytes()); // timescale
    mvhd.extend_from_slice(&duration_ms.to_be_bytes());
    mvhd.extend_from_slice(&0x0001_0000u32.to_be_bytes()); // rate 1.0
    mvhd.extend_from_slice(&0x0100u16.to_be_bytes()); // volume 1.0
    mvhd.extend_from_slice(&[0; 10]);
    MATRIX
        .iter()
        .for_each(|m| mvhd.extend_from_slice(&m.to_be_bytes()));
    mvhd.extend_from_slice(&[0; 24]);
    mvhd.extend_from_slice(&2u32.to_be_bytes()); // next track id
    let mvhd = mp4_full_box(b"mvhd", 0, 0, &mvhd);

    let mut tkhd = Vec::new();
    tkhd.extend_from_slice(&[0; 8]); // creation, modification
    tkhd.extend_from_slice(&1u32.to_be_bytes()); // track id
    tkhd.extend_from_slice(&[0; 4]);
    tkhd.extend_from_slice(&duration_ms.to_be_bytes());
    tkhd.extend_from_slice(&[0; 8]);
    tkhd.extend_from_slice(&[0; 4]); // layer, alternate group
    tkhd.extend_from_slice(&[0; 4]); // volume (video: 0), reserved
    MATRIX
        .iter()
        .for_each(|m| tkhd.extend_from_slice(&m.to_be_bytes()));
    tkhd.extend_from_slice(&(w << 16).to_be_bytes());
    tkhd.extend_from_slice(&(h << 16).to_be_bytes());
    let tkhd = mp4_full_box(b"tkhd", 0, 3, &tkhd);

    let mut mdhd = Vec::new();
    mdhd.extend_from_slice(&[0; 8]);
    mdhd.extend_from_slice(&1000u32.to_be_bytes());
    mdhd.extend_from_slice(&duration_ms.to_be_bytes());
    mdhd.extend_from_slice(&0x55C4u16.to_be_bytes()); // language "und"
    mdhd.extend_from_slice(&[0; 2]);
    let mdhd = mp4_full_box(b"mdhd", 0, 0, &mdhd);

    let mut hdlr = Vec::new();
    hdlr.extend_from_slice(&[0; 4]);
    hdlr.extend_from_slice(b"vide");
    hdlr.extend_from_slice(&[0; 12]);
    hdlr.extend_from_slice(b"VideoHandler\0");
    let hdlr = mp4_full_box(b"hdlr", 0, 0, &hdlr);

    let vmhd = mp4_full_box(b"vmhd", 0, 1, &[0; 8]);
    let url = mp4_full_box(b"url ", 0, 1, &[]);
    let dref = mp4_full_box(b"dref", 0, 0, &[&1u32.to_be_bytes()[..], &url].concat());
    let dinf = mp4_box(b"dinf", &dref);
    let zero = 0u32.to_be_bytes();
    let stbl = mp4_box(
        b"stbl",
        &[
            mp4_full_box(b"stsd", 0, 0, &zero),
            mp4_full_box(b"stts", 0, 0, &zero),
            mp4_full_box(b"stsc", 0, 0, &zero),
            mp4_full_box(b"stsz", 0, 0, &[zero, zero].concat()),
            mp4_full_box(b"stco", 0, 0, &zero),
        ]
        .concat(),
    );
    let minf = mp4_box(b"minf", &[vmhd, dinf, stbl].concat());
    let mdia = mp4_box(b"mdia", &[mdhd, hdlr, minf].concat());
    let trak = mp4_box(b"trak", &[tkhd, mdia].concat());
    let moov = mp4_box(b"moov", &[mvhd, trak].concat());

    let payload: Vec<u8> = (0..256).map(|_| (rng.next_u64() >> 56) as u8).collect();
    let mdat = mp4_box(b"mdat", &payload);
    [ftyp, moov, mdat].concat()
}
