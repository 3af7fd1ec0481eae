//! WAV in and out: decoding any WAV, resampling, writing and 44.1 kHz conversion.

use std::io::Cursor;

use super::format::MAX_PROCESS_SECONDS;
/// Decoded PCM, interleaved, in [-1, 1].
pub(super) struct Pcm {
    pub(super) rate: u32,
    pub(super) channels: usize,
    pub(super) data: Vec<f32>,
}

impl Pcm {
    pub(super) fn frames(&self) -> usize {
        self.data.len() / self.channels.max(1)
    }

    /// Average of all channels.
    pub(super) fn mono(&self) -> Vec<f32> {
        let ch = self.channels.max(1);
        let inv = 1.0 / ch as f32;
        self.data
            .chunks_exact(ch)
            .map(|f| f.iter().sum::<f32>() * inv)
            .collect()
    }

    /// Samples of one channel.
    pub(super) fn channel(&self, c: usize) -> Vec<f32> {
        let ch = self.channels.max(1);
        self.data.iter().skip(c).step_by(ch).copied().collect()
    }
}

/// Reads any WAV hound understands (8/16/24/32-bit int, 32-bit float), stopping at the
/// first damaged sample so a truncated upload still yields what it holds.
pub(super) fn decode(bytes: &[u8], max_seconds: f64) -> Option<Pcm> {
    let mut reader = hound::WavReader::new(Cursor::new(bytes)).ok()?;
    let spec = reader.spec();
    if spec.sample_rate == 0
        || spec.channels == 0
        || spec.bits_per_sample == 0
        || spec.bits_per_sample > 32
    {
        return None;
    }
    let channels = usize::from(spec.channels);
    let max_frames = (max_seconds * f64::from(spec.sample_rate)) as usize;
    let declared = reader.len() as usize;
    // Capacity bounded by the byte count: a header may claim far more data than exists.
    let limit = declared.min(max_frames.saturating_mul(channels));
    let mut data = Vec::with_capacity(limit.min(bytes.len()));
    match spec.sample_format {
        hound::SampleFormat::Float => {
            for s in reader.samples::<f32>().take(limit) {
                match s {
                    Ok(v) if v.is_finite() => data.push(v.clamp(-1.0, 1.0)),
                    Ok(_) => data.push(0.0),
                    Err(_) => break,
                }
            }
        }
        hound::SampleFormat::Int
            if spec.bits_per_sample == 16 && block_align(bytes) == Some(2 * spec.channels) =>
        {
            // Fast path for the common case: hound's per-sample reader costs ~15 ns a
            // sample, slicing the data chunk directly is several times cheaper.
            let start = usize::try_from(reader.into_inner().position()).unwrap_or(usize::MAX);
            let body = bytes.get(start..).unwrap_or(&[]);
            data.extend(
                body.chunks_exact(2)
                    .take(limit)
                    .map(|b| f32::from(i16::from_le_bytes([b[0], b[1]])) / 32768.0),
            );
        }
        hound::SampleFormat::Int => {
            let scale = 1.0 / (1u64 << (spec.bits_per_sample - 1)) as f32;
            for s in reader.samples::<i32>().take(limit) {
                match s {
                    Ok(v) => data.push(v as f32 * scale),
                    Err(_) => break,
                }
            }
        }
    }
    // Drop a trailing partial frame so channels stay aligned.
    data.truncate(data.len() / channels * channels);
    Some(Pcm {
        rate: spec.sample_rate,
        channels,
        data,
    })
}

/// `nBlockAlign` of the `fmt ` chunk, found by walking the RIFF chunks; tells whether
/// samples are packed (hound does not expose the container size).
pub(super) fn block_align(bytes: &[u8]) -> Option<u16> {
    let mut pos = 12usize;
    while let Some(head) = bytes.get(pos..pos + 8) {
        let size = u32::from_le_bytes([head[4], head[5], head[6], head[7]]) as usize;
        if &head[..4] == b"fmt " {
            let b = bytes.get(pos + 20..pos + 22)?;
            return Some(u16::from_le_bytes([b[0], b[1]]));
        }
        // Chunks are padded to an even size.
        pos = pos
            .checked_add(8)?
            .checked_add(size)?
            .checked_add(size & 1)?;
    }
    None
}

/// Linear-interpolation resampling to exactly `out_len` samples.
pub(super) fn resample(input: &[f32], from: u32, to: u32, out_len: usize) -> Vec<f32> {
    if input.is_empty() || from == 0 || to == 0 {
        return vec![0.0; out_len];
    }
    let step = f64::from(from) / f64::from(to);
    let last = input.len() - 1;
    (0..out_len)
        .map(|i| {
            let pos = i as f64 * step;
            let idx = (pos as usize).min(last);
            let frac = (pos - idx as f64).clamp(0.0, 1.0) as f32;
            let a = input.get(idx).copied().unwrap_or(0.0);
            let b = input.get((idx + 1).min(last)).copied().unwrap_or(a);
            a + (b - a) * frac
        })
        .collect()
}

/// Number of output frames that keeps the duration when going from rate `from` to `to`.
pub(super) fn scaled_len(frames: usize, from: u32, to: u32) -> usize {
    if from == 0 {
        return 0;
    }
    (frames as f64 * f64::from(to) / f64::from(from)).round() as usize
}

#[inline(always)]
pub(super) fn to_i16(s: f32) -> i16 {
    (s * 32767.0).round().clamp(-32768.0, 32767.0) as i16
}

/// Writes interleaved samples as a 16-bit PCM WAV; empty `Vec` if hound refuses.
pub(super) fn write_wav(samples: &[f32], rate: u32, channels: u16) -> Vec<u8> {
    write_i16(
        samples.iter().map(|&s| to_i16(s)),
        samples.len(),
        rate,
        channels,
    )
}

/// Writes interleaved 16-bit samples as they are (`len` of them) as a PCM WAV; empty `Vec` if
/// hound refuses.
pub(super) fn write_i16(
    samples: impl Iterator<Item = i16>,
    len: usize,
    rate: u32,
    channels: u16,
) -> Vec<u8> {
    let spec = hound::WavSpec {
        channels,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut out = Vec::with_capacity(44 + len * 2);
    let ok = (|| -> Result<(), hound::Error> {
        let mut w = hound::WavWriter::new(Cursor::new(&mut out), spec)?;
        for s in samples {
            w.write_sample(s)?;
        }
        w.finalize()
    })();
    if ok.is_ok() {
        out
    } else {
        Vec::new()
    }
}

/// True duration in seconds of a WAV file: the frames actually present, which is the
/// declared length unless the file is truncated. `None` if it is not a readable WAV.
pub fn wav_duration(bytes: &[u8]) -> Option<f32> {
    let reader = hound::WavReader::new(Cursor::new(bytes)).ok()?;
    let spec = reader.spec();
    if spec.sample_rate == 0 || spec.channels == 0 {
        return None;
    }
    let declared = u64::from(reader.duration());
    let data_start = reader.into_inner().position();
    let frame_bytes = u64::from(spec.bits_per_sample).div_ceil(8) * u64::from(spec.channels);
    let available = (bytes.len() as u64).saturating_sub(data_start) / frame_bytes.max(1);
    Some((declared.min(available) as f64 / f64::from(spec.sample_rate)) as f32)
}

/// Converts a WAV to 44.1 kHz, 16-bit, stereo (the "WAV conversion" result, larger than
/// the source): mono is duplicated to both sides, stereo kept, more channels reduced to
/// the first two; duration is preserved. Empty `Vec` on undecodable input (or > 20 min).
pub fn to_wav_44k(wav: &[u8]) -> Vec<u8> {
    const OUT: u32 = 44_100;
    let Some(pcm) = decode(wav, MAX_PROCESS_SECONDS) else {
        return Vec::new();
    };
    let out_len = scaled_len(pcm.frames(), pcm.rate, OUT);
    let left = resample(&pcm.channel(0), pcm.rate, OUT, out_len);
    let right = if pcm.channels >= 2 {
        resample(&pcm.channel(1), pcm.rate, OUT, out_len)
    } else {
        left.clone()
    };
    let mut inter = Vec::with_capacity(out_len * 2);
    for (l, r) in left.iter().zip(&right) {
        inter.push(*l);
        inter.push(*r);
    }
    write_wav(&inter, OUT, 2)
}
