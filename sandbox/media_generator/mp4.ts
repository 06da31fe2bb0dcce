// An MP4 (ISO/IEC 14496-12 base media file, 14496-15 AVC) of one H.264 video track: ftyp, then moov before mdat so a
// player can start at the first bytes. Every sample is one frame (an IDR access unit, its NAL units behind 4-byte
// lengths) and a sync sample; the parameter sets are in the avcC box.
import type { Frame } from './png.js';
import { avcProfile, idrSlice, pictureParameterSet, sequenceParameterSet } from './h264.js';

/** Movie and media time: milliseconds. */
const TIMESCALE = 1000;
const IDENTITY_MATRIX = [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000];

const u8 = (...values: number[]): Buffer => Buffer.from(values);
const u16 = (...values: number[]): Buffer => {
  const b = Buffer.alloc(values.length * 2);
  values.forEach((v, i) => b.writeUInt16BE(v, i * 2));
  return b;
};
const u32 = (...values: number[]): Buffer => {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, i * 4));
  return b;
};
const zeros = (n: number): Buffer => Buffer.alloc(n);

function box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, 'ascii'), body]);
}

const fullBox = (type: string, version: number, flags: number, ...content: Buffer[]): Buffer =>
  box(type, u32(((version & 0xff) << 24) | (flags & 0xffffff)), ...content);

function avcSampleEntry(width: number, height: number, sps: Buffer, pps: Buffer): Buffer {
  const avcC = box('avcC',
    u8(1, avcProfile.profile, avcProfile.constraints, avcProfile.level, 0xff /* 4-byte lengths */, 0xe1 /* one SPS */),
    u16(sps.length), sps, u8(1), u16(pps.length), pps);
  const compressor = zeros(32);
  compressor.write('\u0004H264', 'latin1'); // a Pascal string: its length, then the name
  return box('avc1', zeros(6), u16(1) /* data_reference_index */, zeros(16) /* pre_defined, reserved */, u16(width, height),
    u32(0x00480000, 0x00480000, 0), u16(1) /* frame_count */, compressor, u16(0x0018), u16(0xffff), avcC);
}

function moov(frames: Frame[], durationMs: number, sampleDelta: number, sampleSizes: number[], mdatOffset: number, sps: Buffer, pps: Buffer): Buffer {
  const { width, height } = frames[0]!;
  const stbl = box('stbl',
    fullBox('stsd', 0, 0, u32(1), avcSampleEntry(width, height, sps, pps)),
    fullBox('stts', 0, 0, u32(1, sampleSizes.length, sampleDelta)),
    fullBox('stsc', 0, 0, u32(1, 1, sampleSizes.length, 1)), // one chunk holds every sample
    fullBox('stsz', 0, 0, u32(0, sampleSizes.length, ...sampleSizes)),
    fullBox('stco', 0, 0, u32(1, mdatOffset)));
  const minf = box('minf',
    fullBox('vmhd', 0, 1, u16(0, 0, 0, 0)),
    box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1))),
    stbl);
  const mdia = box('mdia',
    fullBox('mdhd', 0, 0, u32(0, 0, TIMESCALE, durationMs), u16(0x55c4 /* und */, 0)),
    fullBox('hdlr', 0, 0, u32(0), Buffer.from('vide', 'ascii'), zeros(12), Buffer.from('VideoHandler\0', 'ascii')),
    minf);
  const tkhd = fullBox('tkhd', 0, 3 /* enabled, in movie */, u32(0, 0, 1, 0, durationMs), zeros(8), u16(0, 0, 0, 0),
    u32(...IDENTITY_MATRIX), u32(width << 16, height << 16));
  const mvhd = fullBox('mvhd', 0, 0, u32(0, 0, TIMESCALE, durationMs, 0x00010000), u16(0x0100, 0), zeros(8),
    u32(...IDENTITY_MATRIX), zeros(24), u32(2));
  return box('moov', mvhd, box('trak', tkhd, mdia));
}

/** The frames (all one size, multiples of 16) as an MP4 playing `fps` frames a second. */
export function encodeMp4(frames: Frame[], fps: number): Buffer {
  const { width, height } = frames[0]!;
  const sps = sequenceParameterSet(width, height);
  const pps = pictureParameterSet();
  const samples = frames.map((frame, i) => {
    const slice = idrSlice(frame, i % 2);
    return Buffer.concat([u32(slice.length), slice]);
  });
  const sizes = samples.map((s) => s.length);
  const sampleDelta = TIMESCALE / fps;
  const duration = sampleDelta * frames.length;
  const ftyp = box('ftyp', Buffer.from('isom', 'ascii'), u32(0x200), Buffer.from('isomiso2avc1mp41', 'ascii'));
  // moov's size does not depend on where mdat starts, so it is measured once and written again with the offset.
  const moovSize = moov(frames, duration, sampleDelta, sizes, 0, sps, pps).length;
  const mdatOffset = ftyp.length + moovSize + 8;
  const mdat = box('mdat', ...samples);
  return Buffer.concat([ftyp, moov(frames, duration, sampleDelta, sizes, mdatOffset, sps, pps), mdat]);
}
