// A reader for the generator's videos, written from the specifications rather than from the encoder: the MP4 box
// tree (ISO/IEC 14496-12/-15) and an H.264 decoder for what the stream may hold (IDR I slices of I_PCM macroblocks,
// CAVLC); anything else fails the test.
import * as assert from 'uvu/assert';

export interface Box { type: string; body: Buffer; children: Box[] }

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'dinf']);

export function parseBoxes(buf: Buffer): Box[] {
  const out: Box[] = [];
  for (let at = 0; at < buf.length;) {
    const size = buf.readUInt32BE(at);
    assert.ok(size >= 8 && at + size <= buf.length, `a box of ${size} bytes at ${at} fits its parent`);
    const type = buf.toString('latin1', at + 4, at + 8);
    const body = buf.subarray(at + 8, at + size);
    out.push({ type, body, children: CONTAINERS.has(type) ? parseBoxes(body) : [] });
    at += size;
  }
  return out;
}

/** The box at a path of types ('moov/trak/tkhd'). */
export function find(boxes: Box[], path: string): Box {
  let here: Box | undefined;
  let level = boxes;
  for (const type of path.split('/')) {
    here = level.find((b) => b.type === type);
    assert.ok(here, `a ${type} box in ${path}`);
    level = here.children;
  }
  return here!;
}

/** Exp-Golomb and fixed-width reads over an RBSP (emulation prevention removed). */
class BitReader {
  at = 0;
  constructor(private readonly data: Uint8Array) {}
  bit(): number {
    assert.ok(this.at < this.data.length * 8, 'the RBSP has more bits');
    const b = (this.data[this.at >> 3]! >> (7 - (this.at & 7))) & 1;
    this.at++;
    return b;
  }
  u(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 2 + this.bit();
    return v;
  }
  ue(): number {
    let zeros = 0;
    while (this.bit() === 0) zeros++;
    return (1 << zeros) - 1 + this.u(zeros);
  }
  se(): number {
    const k = this.ue();
    return k % 2 ? (k + 1) / 2 : -k / 2;
  }
  aligned(): boolean { return this.at % 8 === 0; }
  bytes(n: number): Uint8Array {
    assert.ok(this.aligned());
    const out = this.data.subarray(this.at / 8, this.at / 8 + n);
    this.at += n * 8;
    return out;
  }
  /** rbsp_trailing_bits and nothing after them. */
  end(): void {
    assert.is(this.bit(), 1, 'rbsp_stop_one_bit');
    while (!this.aligned()) assert.is(this.bit(), 0);
    assert.is(this.at, this.data.length * 8, 'nothing after the trailing bits');
  }
}

/** The NAL unit's type and its RBSP (each 00 00 03 loses its 03). */
function unescape(nal: Uint8Array): { type: number; refIdc: number; rbsp: Uint8Array } {
  const out: number[] = [];
  let zeros = 0;
  for (const b of nal.subarray(1)) {
    if (zeros >= 2 && b === 3) { zeros = 0; continue; }
    out.push(b);
    zeros = b === 0 ? zeros + 1 : 0;
  }
  return { type: nal[0]! & 0x1f, refIdc: (nal[0]! >> 5) & 3, rbsp: Uint8Array.from(out) };
}

export interface Sps { profile: number; level: number; widthMbs: number; heightMbs: number; log2MaxFrameNum: number }

export function parseSps(nal: Uint8Array): Sps {
  const { type, rbsp } = unescape(nal);
  assert.is(type, 7);
  const r = new BitReader(rbsp);
  const profile = r.u(8);
  r.u(8); // constraint flags
  const level = r.u(8);
  assert.is(r.ue(), 0, 'seq_parameter_set_id');
  const log2MaxFrameNum = r.ue() + 4;
  assert.is(r.ue(), 2, 'pic_order_cnt_type');
  r.ue(); // max_num_ref_frames
  r.u(1);
  const widthMbs = r.ue() + 1;
  const heightMbs = r.ue() + 1;
  assert.is(r.u(1), 1, 'frame_mbs_only_flag');
  r.u(1);
  assert.is(r.u(1), 0, 'frame_cropping_flag');
  assert.is(r.u(1), 0, 'vui_parameters_present_flag');
  r.end();
  return { profile, level, widthMbs, heightMbs, log2MaxFrameNum };
}

export function checkPps(nal: Uint8Array): void {
  const { type, rbsp } = unescape(nal);
  assert.is(type, 8);
  const r = new BitReader(rbsp);
  assert.equal([r.ue(), r.ue(), r.u(1), r.u(1), r.ue()], [0, 0, 0, 0, 0], 'ids, CAVLC, one slice group');
  r.ue(); r.ue(); r.u(1); r.u(2); r.se(); r.se(); r.se();
  assert.is(r.u(1), 1, 'deblocking_filter_control_present_flag');
  r.u(1); r.u(1);
  r.end();
}

export interface Picture { width: number; height: number; y: Uint8Array; cb: Uint8Array; cr: Uint8Array; idrPicId: number }

/** Decodes one sample: a single IDR slice NAL (4-byte length) whose macroblocks are I_PCM. */
export function decodeSample(sample: Buffer, sps: Sps): Picture {
  const length = sample.readUInt32BE(0);
  assert.is(4 + length, sample.length, 'one NAL unit in the sample');
  const { type, refIdc, rbsp } = unescape(sample.subarray(4));
  assert.equal([type, refIdc > 0], [5, true], 'an IDR picture, a reference');
  const r = new BitReader(rbsp);
  assert.is(r.ue(), 0, 'first_mb_in_slice');
  assert.ok([2, 7].includes(r.ue()), 'an I slice');
  assert.is(r.ue(), 0, 'pic_parameter_set_id');
  assert.is(r.u(sps.log2MaxFrameNum), 0, 'frame_num of an IDR picture');
  const idrPicId = r.ue();
  r.u(1); r.u(1); // dec_ref_pic_marking of an IDR picture
  r.se(); // slice_qp_delta
  if (r.ue() !== 1) { r.se(); r.se(); }
  const width = sps.widthMbs * 16;
  const height = sps.heightMbs * 16;
  const y = new Uint8Array(width * height);
  const cb = new Uint8Array((width / 2) * (height / 2));
  const cr = new Uint8Array((width / 2) * (height / 2));
  for (let mb = 0; mb < sps.widthMbs * sps.heightMbs; mb++) {
    assert.is(r.ue(), 25, 'mb_type I_PCM');
    while (!r.aligned()) assert.is(r.bit(), 0, 'pcm_alignment_zero_bit');
    const [mx, my] = [mb % sps.widthMbs, Math.floor(mb / sps.widthMbs)];
    const luma = r.bytes(256);
    for (let row = 0; row < 16; row++) y.set(luma.subarray(row * 16, row * 16 + 16), (my * 16 + row) * width + mx * 16);
    for (const plane of [cb, cr]) {
      const chroma = r.bytes(64);
      for (let row = 0; row < 8; row++) plane.set(chroma.subarray(row * 8, row * 8 + 8), (my * 8 + row) * (width / 2) + mx * 8);
    }
  }
  r.end();
  return { width, height, y, cb, cr, idrPicId };
}

export interface Video {
  topLevel: string[];
  movie: { timescale: number; duration: number };
  track: { width: number; height: number; duration: number; handler: string };
  media: { timescale: number; duration: number };
  entry: string;
  sps: Sps;
  frames: Picture[];
  deltas: number[];
}

export function readMp4(buf: Buffer): Video {
  const boxes = parseBoxes(buf);
  const ftyp = find(boxes, 'ftyp').body;
  assert.ok(['isom', 'mp41', 'mp42'].includes(ftyp.toString('latin1', 0, 4)), 'an MP4 brand');
  const mvhd = find(boxes, 'moov/mvhd').body;
  const traks = find(boxes, 'moov').children.filter((b) => b.type === 'trak');
  assert.is(traks.length, 1, 'one track');
  const tkhd = find(boxes, 'moov/trak/tkhd').body;
  const mdhd = find(boxes, 'moov/trak/mdia/mdhd').body;
  const handler = find(boxes, 'moov/trak/mdia/hdlr').body.toString('latin1', 8, 12);
  const stbl = 'moov/trak/mdia/minf/stbl';
  const stsd = find(boxes, `${stbl}/stsd`).body;
  assert.is(stsd.readUInt32BE(4), 1, 'one sample entry');
  const entry = parseBoxes(stsd.subarray(8))[0]!;
  const avcC = parseBoxes(entry.body.subarray(78)).find((b) => b.type === 'avcC');
  assert.ok(avcC, 'an avcC box in the sample entry');
  const c = avcC.body;
  assert.equal([c[0], c[4]! & 3, c[5]! & 0x1f], [1, 3, 1], 'version 1, 4-byte lengths, one SPS');
  const spsLength = c.readUInt16BE(6);
  const sps = parseSps(c.subarray(8, 8 + spsLength));
  assert.is(c[8 + spsLength], 1, 'one PPS');
  const ppsLength = c.readUInt16BE(9 + spsLength);
  checkPps(c.subarray(11 + spsLength, 11 + spsLength + ppsLength));
  assert.is(entry.body.readUInt16BE(24), sps.widthMbs * 16, 'the sample entry\'s width is the stream\'s');
  assert.is(entry.body.readUInt16BE(26), sps.heightMbs * 16);

  const stts = find(boxes, `${stbl}/stts`).body;
  const deltas: number[] = [];
  for (let i = 0; i < stts.readUInt32BE(4); i++) {
    for (let n = 0; n < stts.readUInt32BE(8 + i * 8); n++) deltas.push(stts.readUInt32BE(12 + i * 8));
  }
  const stsz = find(boxes, `${stbl}/stsz`).body;
  assert.is(stsz.readUInt32BE(4), 0, 'sizes per sample');
  const sizes = Array.from({ length: stsz.readUInt32BE(8) }, (_, i) => stsz.readUInt32BE(12 + i * 4));
  const stsc = find(boxes, `${stbl}/stsc`).body;
  assert.equal([stsc.readUInt32BE(4), stsc.readUInt32BE(8), stsc.readUInt32BE(12)], [1, 1, sizes.length], 'one chunk of every sample');
  const stco = find(boxes, `${stbl}/stco`).body;
  assert.is(stco.readUInt32BE(4), 1);
  const mdat = find(boxes, 'mdat');
  const mdatStart = mdat.body.byteOffset - buf.byteOffset;
  let offset = stco.readUInt32BE(8);
  assert.is(offset, mdatStart, 'the chunk starts the mdat');
  const frames = sizes.map((size) => {
    const sample = buf.subarray(offset, offset + size);
    offset += size;
    return decodeSample(sample, sps);
  });
  assert.is(offset, mdatStart + mdat.body.length, 'the samples fill the mdat');
  return {
    topLevel: boxes.map((b) => b.type),
    movie: { timescale: mvhd.readUInt32BE(12), duration: mvhd.readUInt32BE(16) },
    track: { width: tkhd.readUInt32BE(76) / 65536, height: tkhd.readUInt32BE(80) / 65536, duration: tkhd.readUInt32BE(20), handler },
    media: { timescale: mdhd.readUInt32BE(12), duration: mdhd.readUInt32BE(16) },
    entry: entry.type,
    sps,
    frames,
    deltas,
  };
}
