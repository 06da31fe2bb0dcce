// A minimal H.264 (ISO/IEC 14496-10) writer for the simulated generator's videos: Constrained Baseline, every frame an
// IDR picture of one I slice whose macroblocks are all I_PCM, i.e. the 4:2:0 samples themselves, uncompressed. That
// needs no prediction, transform or entropy coder, yet it is a conforming stream every H.264 decoder (browsers
// included) plays. Colours are BT.601 limited range, so no sample is 0.
import type { Frame } from './png.js';

/** Bits most significant first, into a buffer that grows; `bytes` once aligned. */
class BitWriter {
  private out = new Uint8Array(1024);
  private length = 0;
  private current = 0;
  private count = 0;

  bit(b: number): void {
    this.current = (this.current << 1) | (b & 1);
    if (++this.count === 8) {
      this.push(this.current);
      this.current = 0;
      this.count = 0;
    }
  }

  u(bits: number, value: number): void {
    for (let i = bits - 1; i >= 0; i--) this.bit((value >>> i) & 1);
  }

  /** Exp-Golomb, unsigned (ue(v)). */
  ue(value: number): void {
    const code = value + 1;
    const length = 32 - Math.clz32(code);
    this.u(length - 1, 0);
    this.u(length, code);
  }

  /** Exp-Golomb, signed (se(v)). */
  se(value: number): void {
    this.ue(value > 0 ? 2 * value - 1 : -2 * value);
  }

  alignWithZeros(): void {
    while (this.count !== 0) this.bit(0);
  }

  bytes(data: Uint8Array): void {
    if (this.count !== 0) throw new Error('bytes written at an unaligned position');
    this.reserve(data.length);
    this.out.set(data, this.length);
    this.length += data.length;
  }

  /** rbsp_trailing_bits: a stop bit, then zeros to the byte boundary. */
  trailing(): Uint8Array {
    this.bit(1);
    this.alignWithZeros();
    return this.out.subarray(0, this.length);
  }

  private push(byte: number): void {
    this.reserve(1);
    this.out[this.length++] = byte;
  }

  private reserve(n: number): void {
    if (this.length + n <= this.out.length) return;
    const grown = new Uint8Array(Math.max(this.out.length * 2, this.length + n));
    grown.set(this.out.subarray(0, this.length));
    this.out = grown;
  }
}

const PROFILE_BASELINE = 66;
/** constraint_set0 and constraint_set1: Constrained Baseline. */
const CONSTRAINTS = 0xc0;
/** Level 3.0: up to 1620 macroblocks a frame and 10 Mbit/s, enough for 256x256 I_PCM at 8 frames a second. */
const LEVEL = 30;
const I_PCM = 25;

/** A NAL unit: its header byte, then the payload with emulation prevention (00 00 0x, x <= 3, gets a 03 inserted). */
function nal(refIdc: number, type: number, rbsp: Uint8Array): Buffer {
  // At most one 03 for every two bytes of the payload.
  const out = Buffer.alloc(1 + rbsp.length + Math.ceil(rbsp.length / 2));
  out[0] = (refIdc << 5) | type;
  let length = 1;
  let zeros = 0;
  for (const b of rbsp) {
    if (zeros >= 2 && b <= 3) {
      out[length++] = 3;
      zeros = 0;
    }
    out[length++] = b;
    zeros = b === 0 ? zeros + 1 : 0;
  }
  return out.subarray(0, length);
}

export const avcProfile = { profile: PROFILE_BASELINE, constraints: CONSTRAINTS, level: LEVEL };

/** The sequence parameter set for frames of this size (multiples of 16). */
export function sequenceParameterSet(width: number, height: number): Buffer {
  const w = new BitWriter();
  w.u(8, PROFILE_BASELINE);
  w.u(8, CONSTRAINTS);
  w.u(8, LEVEL);
  w.ue(0); // seq_parameter_set_id
  w.ue(0); // log2_max_frame_num_minus4: every picture is an IDR, frame_num is always 0
  w.ue(2); // pic_order_cnt_type 2: output order is decoding order
  w.ue(1); // max_num_ref_frames
  w.u(1, 0); // gaps_in_frame_num_value_allowed_flag
  w.ue(width / 16 - 1);
  w.ue(height / 16 - 1);
  w.u(1, 1); // frame_mbs_only_flag
  w.u(1, 1); // direct_8x8_inference_flag
  w.u(1, 0); // frame_cropping_flag
  w.u(1, 0); // vui_parameters_present_flag
  return nal(3, 7, w.trailing());
}

export function pictureParameterSet(): Buffer {
  const w = new BitWriter();
  w.ue(0); // pic_parameter_set_id
  w.ue(0); // seq_parameter_set_id
  w.u(1, 0); // entropy_coding_mode_flag: CAVLC
  w.u(1, 0); // bottom_field_pic_order_in_frame_present_flag
  w.ue(0); // num_slice_groups_minus1
  w.ue(0); // num_ref_idx_l0_default_active_minus1
  w.ue(0); // num_ref_idx_l1_default_active_minus1
  w.u(1, 0); // weighted_pred_flag
  w.u(2, 0); // weighted_bipred_idc
  w.se(0); // pic_init_qp_minus26
  w.se(0); // pic_init_qs_minus26
  w.se(0); // chroma_qp_index_offset
  w.u(1, 1); // deblocking_filter_control_present_flag: slices turn the filter off
  w.u(1, 0); // constrained_intra_pred_flag
  w.u(1, 0); // redundant_pic_cnt_present_flag
  return nal(3, 8, w.trailing());
}

/** The frame's 4:2:0 planes, BT.601 limited range (the standard integer approximation); chroma averages 2x2 pixels. */
export function toYuv420(frame: Frame): { y: Uint8Array; cb: Uint8Array; cr: Uint8Array } {
  const { width, height, rgb } = frame;
  const y = new Uint8Array(width * height);
  const cbFull = new Int32Array(width * height);
  const crFull = new Int32Array(width * height);
  for (let i = 0; i < width * height; i++) {
    const r = rgb[i * 3]!, g = rgb[i * 3 + 1]!, b = rgb[i * 3 + 2]!;
    y[i] = ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16;
    cbFull[i] = ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128;
    crFull[i] = ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128;
  }
  const cw = width / 2;
  const cb = new Uint8Array(cw * (height / 2));
  const cr = new Uint8Array(cw * (height / 2));
  for (let cy = 0; cy < height / 2; cy++) {
    for (let cx = 0; cx < cw; cx++) {
      const top = 2 * cy * width + 2 * cx;
      const bottom = top + width;
      cb[cy * cw + cx] = (cbFull[top]! + cbFull[top + 1]! + cbFull[bottom]! + cbFull[bottom + 1]! + 2) >> 2;
      cr[cy * cw + cx] = (crFull[top]! + crFull[top + 1]! + crFull[bottom]! + crFull[bottom + 1]! + 2) >> 2;
    }
  }
  return { y, cb, cr };
}

/** One frame as an IDR access unit's coded slice: the slice header, then each macroblock (raster order) as I_PCM:
 * its 16x16 luma samples, then 8x8 Cb and 8x8 Cr. `idrPicId` must differ between consecutive IDR pictures. */
export function idrSlice(frame: Frame, idrPicId: number): Buffer {
  const { y, cb, cr } = toYuv420(frame);
  const w = new BitWriter();
  w.ue(0); // first_mb_in_slice
  w.ue(7); // slice_type: I, as every slice of the picture
  w.ue(0); // pic_parameter_set_id
  w.u(4, 0); // frame_num
  w.ue(idrPicId);
  w.u(1, 0); // no_output_of_prior_pics_flag
  w.u(1, 0); // long_term_reference_flag
  w.se(0); // slice_qp_delta
  w.ue(1); // disable_deblocking_filter_idc: off (I_PCM samples are exact)
  const samples = new Uint8Array(384);
  const cw = frame.width / 2;
  for (let my = 0; my < frame.height / 16; my++) {
    for (let mx = 0; mx < frame.width / 16; mx++) {
      w.ue(I_PCM);
      w.alignWithZeros(); // pcm_alignment_zero_bit
      for (let r = 0; r < 16; r++) samples.set(y.subarray((my * 16 + r) * frame.width + mx * 16, (my * 16 + r) * frame.width + mx * 16 + 16), r * 16);
      for (let r = 0; r < 8; r++) {
        samples.set(cb.subarray((my * 8 + r) * cw + mx * 8, (my * 8 + r) * cw + mx * 8 + 8), 256 + r * 8);
        samples.set(cr.subarray((my * 8 + r) * cw + mx * 8, (my * 8 + r) * cw + mx * 8 + 8), 320 + r * 8);
      }
      w.bytes(samples);
    }
  }
  return nal(3, 5, w.trailing());
}
