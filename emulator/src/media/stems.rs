//! Tracks and their stems from notes: a track is the sum of its parts, each part rendered from the notes it plays,
//! so a stem's audio and its MIDI are two views of one note list.

use super::composition::{compose, Voice};
use super::format::{MAX_SOURCE_SECONDS, MAX_SYNTH_SECONDS, PEAK, RATE, RATE_F};
use super::render::{normalize, render_voices};
use super::wav::{decode, resample, scaled_len, write_wav};

/// One part of a synthesized track. A separation stem is a set of parts; the parts of all
/// stems of a separation are disjoint and together make the whole track.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The lead line (what a separation calls the vocal).
    Melody,
    /// Sustained chords.
    Chords,
    /// The arpeggio over the chords.
    Arpeggio,
    Bass,
    /// Kick and snare.
    Drums,
    /// Closed and open hi-hats.
    Percussion,
    /// The uploaded audio mixed into a cover or an extension of an upload; it plays no notes.
    Source,
}

impl Part {
    pub const ALL: [Part; 7] = [
        Part::Melody,
        Part::Chords,
        Part::Arpeggio,
        Part::Bass,
        Part::Drums,
        Part::Percussion,
        Part::Source,
    ];

    fn plays(self, voice: Voice) -> bool {
        match self {
            Part::Melody => voice == Voice::Lead,
            Part::Chords => voice == Voice::Pad,
            Part::Arpeggio => voice == Voice::Arp,
            Part::Bass => voice == Voice::Bass,
            Part::Drums => matches!(voice, Voice::Kick | Voice::Snare),
            Part::Percussion => matches!(voice, Voice::Hat | Voice::OpenHat),
            Part::Source => false,
        }
    }
}

/// A note as MIDI describes it: `pitch` is the MIDI note number (General MIDI drum keys for
/// drums), `start` and `end` are seconds from the start of the track, `velocity` is 0 to 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MidiNote {
    pub pitch: u8,
    pub start: f64,
    pub end: f64,
    pub velocity: f32,
}

fn plays(parts: &[Part], voice: Voice) -> bool {
    parts.iter().any(|p| p.plays(voice))
}

fn synth_len(seconds: f32) -> usize {
    let secs = if seconds.is_finite() {
        seconds.clamp(0.0, MAX_SYNTH_SECONDS)
    } else {
        0.0
    };
    (secs * RATE_F).round() as usize
}

/// Samples of the parts `parts` of the track `synth_track(seed, seconds, source)`, scaled by
/// the same gain as the whole track, so the stems of disjoint part sets add up to the track.
pub(super) fn part_samples(
    seed: u64,
    seconds: f32,
    source: Option<&[u8]>,
    parts: &[Part],
) -> Vec<f32> {
    let src = source
        .and_then(|b| decode(b, f64::from(MAX_SOURCE_SECONDS)))
        .filter(|p| p.frames() > 0);
    let Some(pcm) = src else {
        let total = synth_len(seconds);
        let whole = render_voices(seed, total, true, |_| true);
        let mut out = if Part::ALL.iter().all(|p| parts.contains(p)) {
            whole.clone()
        } else {
            render_voices(seed, total, true, |v| plays(parts, v))
        };
        scale_like(&mut out, &whole, PEAK);
        return out;
    };
    let len = scaled_len(pcm.frames(), pcm.rate, RATE).min((MAX_SOURCE_SECONDS * RATE_F) as usize);
    let mut voice = resample(&pcm.mono(), pcm.rate, RATE, len);
    normalize(&mut voice, 1.0);
    let acc = render_voices(seed, len, true, |_| true);
    // The accompaniment's own gain, then the mix's: the same two steps as the whole track.
    let acc_gain = 1.0 / peak(&acc).max(1e-9);
    let whole: Vec<f32> = voice
        .iter()
        .zip(&acc)
        .map(|(v, a)| 0.6 * v + 0.4 * acc_gain * a)
        .collect();
    let own = if Part::ALL.iter().all(|p| parts.contains(p)) {
        acc
    } else {
        render_voices(seed, len, true, |v| plays(parts, v))
    };
    let with_source = f32::from(u8::from(parts.contains(&Part::Source)));
    let mut out: Vec<f32> = own
        .iter()
        .zip(&voice)
        .map(|(a, v)| 0.4 * acc_gain * a + with_source * 0.6 * v)
        .collect();
    scale_like(&mut out, &whole, PEAK);
    out
}

fn peak(buf: &[f32]) -> f32 {
    buf.iter().fold(0.0f32, |m, s| m.max(s.abs()))
}

/// Multiplies `buf` by the gain that brings the peak of `reference` to `target`.
fn scale_like(buf: &mut [f32], reference: &[f32], target: f32) {
    let p = peak(reference);
    if p > 1e-9 {
        let g = target / p;
        buf.iter_mut().for_each(|s| *s *= g);
    }
}

/// A WAV (mono, 16-bit, 22050 Hz) of only the parts `parts` of the track
/// `synth_track(seed, seconds, source)`: same length, same gain, so the stems of a separation
/// add up to its track. Undecodable sources are ignored as `synth_track` ignores them.
pub fn part_track(seed: u64, seconds: f32, source: Option<&[u8]>, parts: &[Part]) -> Vec<u8> {
    write_wav(&part_samples(seed, seconds, source, parts), RATE, 1)
}

/// The notes the parts `parts` play in a track of `seed` lasting `seconds` (its true duration,
/// as `wav_duration` of the track gives it), in start order: exactly the notes rendered into
/// `part_track` of those parts. `Part::Source` plays none.
pub fn part_notes(seed: u64, seconds: f32, parts: &[Part]) -> Vec<MidiNote> {
    let total = synth_len(seconds);
    let song = compose(seed, total);
    let mut notes: Vec<MidiNote> = song
        .notes
        .iter()
        .filter(|n| plays(parts, n.voice))
        .map(|n| MidiNote {
            pitch: n.pitch,
            start: n.start as f64 / f64::from(RATE),
            end: (n.start + n.len) as f64 / f64::from(RATE),
            velocity: n.vel.clamp(0.0, 1.0),
        })
        .collect();
    notes.sort_by(|a, b| a.start.total_cmp(&b.start).then(a.pitch.cmp(&b.pitch)));
    notes
}

/// A WAV file (mono, 16-bit, 22050 Hz) of pleasant, clearly musical audio that depends only
/// on `seed`: tempo, key, chord progression, bass line, arpeggio, melody and drum pattern
/// are all drawn from it, with a gentle fade in/out and the peak at -1 dBFS.
///
/// Without a usable source the track is exactly `seconds` long (rounded to the nearest
/// sample; negative or non-finite values give an empty but valid WAV; capped at 600 s).
///
/// When `source` is a WAV hound can decode (any rate, channel count, 8/16/24/32-bit int or
/// 32-bit float) and holds at least one frame, it is down-mixed, resampled to 22050 Hz and
/// mixed in at about 60 % against 40 % accompaniment; `seconds` is then ignored and the
/// output has the source's duration, capped at 120 s. An undecodable source is ignored.
pub fn synth_track(seed: u64, seconds: f32, source: Option<&[u8]>) -> Vec<u8> {
    write_wav(&part_samples(seed, seconds, source, &Part::ALL), RATE, 1)
}
