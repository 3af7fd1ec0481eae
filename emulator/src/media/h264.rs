//! A minimal H.264 (Constrained Baseline) encoder for a still picture: one IDR frame of raw
//! I_PCM macroblocks (the picture's samples, uncompressed), then P frames whose every macroblock
//! is skipped (each repeats the previous frame in a few bytes).
//!
//! Chosen because it needs no transform, quantizer or entropy coder: only the parameter sets,
//! slice headers and Exp-Golomb codes, all in Recommendation ITU-T H.264 (08/2021) section 7.

use super::bits::BitWriter;

/// `profile_idc` 66 (Baseline) with `constraint_set0` and `constraint_set1` (Constrained Baseline).
pub(super) const PROFILE: u8 = 66;
pub(super) const CONSTRAINTS: u8 = 0xC0;
/// Level 3.0: up to 1,620 macroblocks a frame, far above the pictures made here.
pub(super) const LEVEL: u8 = 30;
/// `log2_max_frame_num`: frame numbers wrap at 65,536 (the stream stays valid past it).
const LOG2_MAX_FRAME_NUM: u32 = 16;
/// `mb_type` 25 of an I slice: I_PCM.
const MB_I_PCM: u32 = 25;

/// A picture in 8-bit Y'CbCr 4:2:0, with sizes in whole macroblocks (16x16 luma samples).
pub(super) struct Picture {
    pub(super) mbs_wide: usize,
    pub(super) mbs_high: usize,
    pub(super) luma: Vec<u8>,
    pub(super) cb: Vec<u8>,
    pub(super) cr: Vec<u8>,
}

impl Picture {
    pub(super) fn width(&self) -> usize {
        self.mbs_wide * 16
    }

    pub(super) fn height(&self) -> usize {
        self.mbs_high * 16
    }

    /// An sRGB picture of `side`x`side` pixels (row-major RGB bytes), shrunk by averaging
    /// `side / out` pixel squares to `out`x`out` (`out` a multiple of 16 dividing `side`), in
    /// limited-range BT.709 Y'CbCr as the sequence parameter set declares.
    pub(super) fn from_rgb(rgb: &[u8], side: usize, out: usize) -> Picture {
        let step = (side / out.max(1)).max(1);
        let area = (step * step) as f32;
        // Average R', G', B' of each output pixel, in [0, 1].
        let mut small = vec![[0.0f32; 3]; out * out];
        for (i, px) in small.iter_mut().enumerate() {
            let (ox, oy) = (i % out, i / out);
            for y in oy * step..(oy + 1) * step {
                for x in ox * step..(ox + 1) * step {
                    let at = (y * side + x) * 3;
                    if let Some(p) = rgb.get(at..at + 3) {
                        for (acc, v) in px.iter_mut().zip(p) {
                            *acc += f32::from(*v);
                        }
                    }
                }
            }
            px.iter_mut().for_each(|v| *v /= area * 255.0);
        }
        let luma_of = |[r, g, b]: [f32; 3]| 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let code = |v: f32, lo: f32, span: f32| (lo + span * v).round().clamp(lo, lo + span) as u8;
        let luma = small
            .iter()
            .map(|&p| code(luma_of(p), 16.0, 219.0))
            .collect();
        // Chroma at half resolution each way: the average colour of each 2x2 block.
        let half = out / 2;
        let mut cb = Vec::with_capacity(half * half);
        let mut cr = Vec::with_capacity(half * half);
        for cy in 0..half {
            for cx in 0..half {
                let mut sum = [0.0f32; 3];
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let p = small
                        .get((cy * 2 + dy) * out + cx * 2 + dx)
                        .copied()
                        .unwrap_or_default();
                    sum.iter_mut().zip(p).for_each(|(s, v)| *s += v / 4.0);
                }
                let y = luma_of(sum);
                cb.push(code((sum[2] - y) / 1.8556 + 0.5, 16.0, 224.0));
                cr.push(code((sum[0] - y) / 1.5748 + 0.5, 16.0, 224.0));
            }
        }
        Picture {
            mbs_wide: out / 16,
            mbs_high: out / 16,
            luma,
            cb,
            cr,
        }
    }

    fn macroblocks(&self) -> usize {
        self.mbs_wide * self.mbs_high
    }
}

/// A NAL unit: its one-byte header, then the RBSP with emulation prevention bytes inserted (a
/// 0x03 after two zero bytes wherever the next byte is 0 to 3, so no start code appears inside).
fn nal(ref_idc: u8, unit_type: u8, rbsp: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(rbsp.len() + rbsp.len() / 256 + 1);
    out.push((ref_idc & 3) << 5 | (unit_type & 31));
    let mut zeros = 0;
    for &b in rbsp {
        if zeros >= 2 && b <= 3 {
            out.push(3);
            zeros = 0;
        }
        out.push(b);
        zeros = if b == 0 { zeros + 1 } else { 0 };
    }
    out
}

/// `rbsp_trailing_bits`: a one bit, then zeros to the byte boundary.
fn trailing(mut w: BitWriter) -> Vec<u8> {
    w.put_bit(true);
    w.into_bytes()
}

/// The sequence parameter set (NAL type 7): picture size, frame numbering, picture order by
/// decoding order (`pic_order_cnt_type` 2, no reordering), and VUI saying the colours are
/// limited-range BT.709 Y'CbCr of sRGB.
pub(super) fn sps(pic: &Picture) -> Vec<u8> {
    let mut w = BitWriter::default();
    w.put(u32::from(PROFILE), 8);
    w.put(u32::from(CONSTRAINTS), 8);
    w.put(u32::from(LEVEL), 8);
    w.ue(0); // seq_parameter_set_id
    w.ue(LOG2_MAX_FRAME_NUM - 4);
    w.ue(2); // pic_order_cnt_type: output order is decoding order
    w.ue(1); // max_num_ref_frames
    w.put_bit(false); // gaps_in_frame_num_value_allowed_flag
    w.ue(pic.mbs_wide.saturating_sub(1) as u32);
    w.ue(pic.mbs_high.saturating_sub(1) as u32);
    w.put_bit(true); // frame_mbs_only_flag
    w.put_bit(true); // direct_8x8_inference_flag
    w.put_bit(false); // frame_cropping_flag
    w.put_bit(true); // vui_parameters_present_flag
    w.put_bit(false); // aspect_ratio_info_present_flag
    w.put_bit(false); // overscan_info_present_flag
    w.put_bit(true); // video_signal_type_present_flag
    w.put(5, 3); // video_format: unspecified
    w.put_bit(false); // video_full_range_flag: limited range
    w.put_bit(true); // colour_description_present_flag
    w.put(1, 8); // colour_primaries: BT.709 (those of sRGB)
    w.put(13, 8); // transfer_characteristics: IEC 61966-2-1 (sRGB)
    w.put(1, 8); // matrix_coefficients: BT.709
    w.put_bit(false); // chroma_loc_info_present_flag
    w.put_bit(false); // timing_info_present_flag: the container times the frames
    w.put_bit(false); // nal_hrd_parameters_present_flag
    w.put_bit(false); // vcl_hrd_parameters_present_flag
    w.put_bit(false); // pic_struct_present_flag
    w.put_bit(true); // bitstream_restriction_flag
    w.put_bit(true); // motion_vectors_over_pic_boundaries_flag
    w.ue(0); // max_bytes_per_pic_denom
    w.ue(0); // max_bits_per_mb_denom
    w.ue(16); // log2_max_mv_length_horizontal
    w.ue(16); // log2_max_mv_length_vertical
    w.ue(0); // max_num_reorder_frames: every frame is output as soon as it is decoded
    w.ue(1); // max_dec_frame_buffering
    nal(3, 7, &trailing(w))
}

/// The picture parameter set (NAL type 8): CAVLC, one slice group, deblocking controllable.
pub(super) fn pps() -> Vec<u8> {
    let mut w = BitWriter::default();
    w.ue(0); // pic_parameter_set_id
    w.ue(0); // seq_parameter_set_id
    w.put_bit(false); // entropy_coding_mode_flag: CAVLC
    w.put_bit(false); // bottom_field_pic_order_in_frame_present_flag
    w.ue(0); // num_slice_groups_minus1
    w.ue(0); // num_ref_idx_l0_default_active_minus1
    w.ue(0); // num_ref_idx_l1_default_active_minus1
    w.put_bit(false); // weighted_pred_flag
    w.put(0, 2); // weighted_bipred_idc
    w.se(0); // pic_init_qp_minus26
    w.se(0); // pic_init_qs_minus26
    w.se(0); // chroma_qp_index_offset
    w.put_bit(true); // deblocking_filter_control_present_flag
    w.put_bit(false); // constrained_intra_pred_flag
    w.put_bit(false); // redundant_pic_cnt_present_flag
    nal(3, 8, &trailing(w))
}

/// The first frame (NAL type 5, IDR): one I slice of I_PCM macroblocks in raster order, each the
/// 256 luma, 64 Cb and 64 Cr samples of its 16x16 square.
pub(super) fn idr_frame(pic: &Picture) -> Vec<u8> {
    let mut w = BitWriter::with_capacity(pic.macroblocks() * 386 + 16);
    w.ue(0); // first_mb_in_slice
    w.ue(7); // slice_type: I (every slice of the picture)
    w.ue(0); // pic_parameter_set_id
    w.put(0, LOG2_MAX_FRAME_NUM); // frame_num
    w.ue(0); // idr_pic_id
    w.put_bit(false); // no_output_of_prior_pics_flag
    w.put_bit(false); // long_term_reference_flag
    w.se(0); // slice_qp_delta
    w.ue(1); // disable_deblocking_filter_idc: raw samples need no smoothing
    let (width, cwidth) = (pic.width(), pic.width() / 2);
    for my in 0..pic.mbs_high {
        for mx in 0..pic.mbs_wide {
            w.ue(MB_I_PCM);
            w.align(); // pcm_alignment_zero_bit
            for y in my * 16..my * 16 + 16 {
                let at = y * width + mx * 16;
                w.put_bytes(pic.luma.get(at..at + 16).unwrap_or(&[128; 16]));
            }
            for plane in [&pic.cb, &pic.cr] {
                for y in my * 8..my * 8 + 8 {
                    let at = y * cwidth + mx * 8;
                    w.put_bytes(plane.get(at..at + 8).unwrap_or(&[128; 8]));
                }
            }
        }
    }
    nal(3, 5, &trailing(w))
}

/// A later frame (NAL type 1): one P slice that skips every macroblock, so the decoder repeats
/// the previous frame. It is kept as the reference of the next one (`frame_num` counts them).
pub(super) fn repeat_frame(pic: &Picture, frame_num: u32) -> Vec<u8> {
    let mut w = BitWriter::default();
    w.ue(0); // first_mb_in_slice
    w.ue(5); // slice_type: P (every slice of the picture)
    w.ue(0); // pic_parameter_set_id
    w.put(
        frame_num & ((1 << LOG2_MAX_FRAME_NUM) - 1),
        LOG2_MAX_FRAME_NUM,
    );
    w.put_bit(false); // num_ref_idx_active_override_flag
    w.put_bit(false); // ref_pic_list_modification_flag_l0
    w.put_bit(false); // adaptive_ref_pic_marking_mode_flag: sliding window
    w.se(0); // slice_qp_delta
    w.ue(1); // disable_deblocking_filter_idc
    w.ue(pic.macroblocks() as u32); // mb_skip_run: all of them
    nal(2, 1, &trailing(w))
}
