//! A small lossless FLAC encoder (RFC 9639) for the sound of a music video: 16-bit samples in
//! frames of 4,096, each channel a constant, a fixed-predictor subframe with partitioned Rice
//! residuals, or verbatim samples, whichever is smallest.

use super::bits::BitWriter;

/// Samples per channel in every frame but the last.
pub(super) const BLOCK: usize = 4096;
const BITS: u32 = 16;
/// Highest partition order tried: 16-sample partitions in a full block.
const MAX_PARTITION_ORDER: u32 = 8;
/// A 4-bit Rice parameter goes up to 14 (15 announces unencoded partitions, not used here).
const MAX_RICE: u32 = 14;

/// An encoded stream: its STREAMINFO block and its frames, in order (all but the last hold
/// [`BLOCK`] samples per channel).
pub(super) struct Flac {
    pub(super) streaminfo: [u8; 34],
    pub(super) frames: Vec<Vec<u8>>,
    pub(super) samples: usize,
}

impl Flac {
    /// Samples per channel in frame `index`.
    pub(super) fn frame_len(&self, index: usize) -> usize {
        self.samples.saturating_sub(index * BLOCK).min(BLOCK)
    }
}

/// Encodes 16-bit planar channels (one to eight, of equal length) at `rate` Hz (below 2^20).
pub(super) fn encode(channels: &[Vec<i16>], rate: u32) -> Flac {
    let samples = channels.iter().map(Vec::len).min().unwrap_or(0);
    let count = channels.len().clamp(1, 8);
    let frames: Vec<Vec<u8>> = (0..samples.div_ceil(BLOCK))
        .map(|index| {
            let range = index * BLOCK..((index + 1) * BLOCK).min(samples);
            let block: Vec<&[i16]> = channels
                .iter()
                .take(count)
                .map(|c| c.get(range.clone()).unwrap_or(&[]))
                .collect();
            frame(index as u64, &block, rate)
        })
        .collect();
    let streaminfo = streaminfo(&frames, samples, rate, count);
    Flac {
        streaminfo,
        frames,
        samples,
    }
}

/// STREAMINFO: block and frame size bounds, rate, channels, depth, total samples; the MD5 of
/// the audio is left zero, which the format allows ("unknown").
fn streaminfo(frames: &[Vec<u8>], samples: usize, rate: u32, channels: usize) -> [u8; 34] {
    let block = samples.min(BLOCK) as u32;
    let min_frame = frames.iter().map(Vec::len).min().unwrap_or(0) as u32;
    let max_frame = frames.iter().map(Vec::len).max().unwrap_or(0) as u32;
    let mut w = BitWriter::with_capacity(34);
    w.put(block, 16);
    w.put(block, 16);
    w.put(min_frame, 24);
    w.put(max_frame, 24);
    w.put(rate, 20);
    w.put(channels.saturating_sub(1) as u32, 3);
    w.put(BITS - 1, 5);
    let total = samples as u64;
    w.put((total >> 32) as u32, 4);
    w.put(total as u32, 32);
    let mut out = [0u8; 34];
    for (o, b) in out.iter_mut().zip(w.into_bytes()) {
        *o = b;
    }
    out
}

/// The frame header's code for the sample rates it names; 0 says "as in STREAMINFO".
fn rate_code(rate: u32) -> u8 {
    match rate {
        88_200 => 1,
        176_400 => 2,
        192_000 => 3,
        8_000 => 4,
        16_000 => 5,
        22_050 => 6,
        24_000 => 7,
        32_000 => 8,
        44_100 => 9,
        48_000 => 10,
        96_000 => 11,
        _ => 0,
    }
}

/// One frame: header (fixed block size, frame number, CRC-8), a subframe per channel, CRC-16.
fn frame(number: u64, block: &[&[i16]], rate: u32) -> Vec<u8> {
    let len = block.first().map_or(0, |c| c.len());
    let mut out = vec![
        0xFF,
        0xF8,                                                  // sync code, fixed block size
        0x70 | rate_code(rate), // block size: 16 bits after the frame number
        ((block.len().saturating_sub(1) as u8) << 4) | 0b1000, // independent channels, 16 bits
    ];
    utf8_number(&mut out, number);
    out.extend_from_slice(&(len.saturating_sub(1) as u16).to_be_bytes());
    out.push(crc8(&out));
    let mut w = BitWriter::with_capacity(len * 2 * block.len());
    for channel in block {
        subframe(&mut w, channel);
    }
    out.extend(w.into_bytes());
    let crc = crc16(&out);
    out.extend_from_slice(&crc.to_be_bytes());
    out
}

/// The frame number in the "UTF-8" form of FLAC (up to 36 bits, 1 to 7 bytes).
fn utf8_number(out: &mut Vec<u8>, n: u64) {
    if n < 0x80 {
        out.push(n as u8);
        return;
    }
    // With `extra` continuation bytes of 6 bits, the lead byte keeps 6 - extra: 5 * extra + 6 in all.
    let extra = (1..6).find(|e| n < 1 << (5 * e + 6)).unwrap_or(6);
    let lead_mask = !(0xFFu8 >> (extra + 1));
    out.push(lead_mask | (n >> (6 * extra)) as u8);
    for i in (0..extra).rev() {
        out.push(0x80 | ((n >> (6 * i)) & 0x3F) as u8);
    }
}

/// One channel's subframe: the cheapest of constant, fixed predictor (order 0 to 4, the one
/// with the smallest residuals) and verbatim.
fn subframe(w: &mut BitWriter, x: &[i16]) {
    let Some(&first) = x.first() else {
        return;
    };
    if x.iter().all(|&s| s == first) {
        w.put(0, 8); // zero pad, type CONSTANT, no wasted bits
        w.put(u32::from(first as u16), BITS);
        return;
    }
    let mut residual: Vec<i32> = x.iter().map(|&s| i32::from(s)).collect();
    let mut best: Option<(u64, usize, Vec<i32>)> = None;
    for order in 0..=4usize.min(x.len() - 1) {
        if order > 0 {
            // Order k's residual is the difference of order k-1's.
            for i in (order..residual.len()).rev() {
                residual[i] -= residual[i - 1];
            }
        }
        let cost: u64 = residual
            .iter()
            .skip(order)
            .map(|r| u64::from(r.unsigned_abs()))
            .sum();
        if best.as_ref().is_none_or(|b| cost < b.0) {
            best = Some((cost, order, residual.clone()));
        }
    }
    let Some((_, order, residual)) = best else {
        return;
    };
    let folded: Vec<u32> = residual
        .iter()
        .skip(order)
        .map(|&r| ((r << 1) ^ (r >> 31)) as u32)
        .collect();
    let (partition_order, params, bits) = rice_plan(&folded, x.len(), order);
    let fixed_bits = 8 + order as u64 * u64::from(BITS) + 6 + bits;
    if fixed_bits >= 8 + x.len() as u64 * u64::from(BITS) {
        w.put(0b0000_0010, 8); // VERBATIM
        x.iter().for_each(|&s| w.put(u32::from(s as u16), BITS));
        return;
    }
    w.put(0b0001_0000 | (order as u32) << 1, 8); // FIXED, its order, no wasted bits
    x.iter()
        .take(order)
        .for_each(|&s| w.put(u32::from(s as u16), BITS));
    w.put(0, 2); // residual coding: Rice with 4-bit parameters
    w.put(partition_order, 4);
    let mut rest = folded.as_slice();
    for (p, &k) in params.iter().enumerate() {
        let size = (x.len() >> partition_order) - if p == 0 { order } else { 0 };
        let (part, tail) = rest.split_at(size.min(rest.len()));
        rest = tail;
        w.put(k, 4);
        for &u in part {
            w.zeros(u64::from(u >> k));
            w.put_bit(true);
            w.put(u, k);
        }
    }
}

/// The partition order and per-partition Rice parameters that code `folded` (the residuals
/// after the `order` warm-up samples of a block of `len`) in the fewest bits, and that count.
fn rice_plan(folded: &[u32], len: usize, order: usize) -> (u32, Vec<u32>, u64) {
    let mut best = (0, vec![0], u64::MAX);
    for p in 0..=MAX_PARTITION_ORDER {
        let size = len >> p;
        if !len.is_multiple_of(1 << p) || size <= order {
            break;
        }
        let mut params = Vec::with_capacity(1 << p);
        let mut bits = 0u64;
        let mut start = 0;
        for i in 0..1usize << p {
            let n = size - if i == 0 { order } else { 0 };
            let part = folded.get(start..start + n).unwrap_or(&[]);
            start += n;
            let sum: u64 = part.iter().map(|&u| u64::from(u)).sum();
            // Bits with parameter k: a stop bit and k low bits per value, plus the quotients,
            // whose sum is at most sum >> k (so the plan never undercounts).
            let (k, cost) = (0..=MAX_RICE)
                .map(|k| (k, n as u64 * u64::from(k + 1) + (sum >> k)))
                .min_by_key(|&(_, cost)| cost)
                .unwrap_or((0, 0));
            params.push(k);
            bits += 4 + cost;
        }
        if bits < best.2 {
            best = (p, params, bits);
        }
    }
    best
}

/// CRC-8 of frame headers: polynomial x^8 + x^2 + x + 1, initial value 0.
fn crc8(bytes: &[u8]) -> u8 {
    bytes.iter().fold(0u8, |mut crc, &b| {
        crc ^= b;
        for _ in 0..8 {
            crc = if crc & 0x80 != 0 {
                (crc << 1) ^ 0x07
            } else {
                crc << 1
            };
        }
        crc
    })
}

/// CRC-16 of whole frames: polynomial x^16 + x^15 + x^2 + 1, initial value 0.
fn crc16(bytes: &[u8]) -> u16 {
    bytes.iter().fold(0u16, |mut crc, &b| {
        crc ^= u16::from(b) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x8005
            } else {
                crc << 1
            };
        }
        crc
    })
}
