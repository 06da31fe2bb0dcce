// A tiny PNG encoder: truecolour 8-bit, unfiltered scanlines deflated with node:zlib. Enough for the simulated
// generator's pictures.
import { deflateSync } from 'node:zlib';

/** One frame: width * height * 3 bytes, RGB, rows top to bottom. */
export interface Frame { width: number; height: number; rgb: Uint8Array }

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const body = Buffer.concat([head.subarray(4), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([head.subarray(0, 4), body, crc]);
}

const u32 = (...values: number[]): Buffer => {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeUInt32BE(v, i * 4));
  return b;
};

/** The frame's scanlines, each behind filter byte 0 (none), deflated. */
function imageData(frame: Frame): Buffer {
  const stride = frame.width * 3;
  const raw = Buffer.alloc((stride + 1) * frame.height);
  for (let y = 0; y < frame.height; y++) raw.set(frame.rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  return deflateSync(raw);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function header(frame: Frame): Buffer {
  // bit depth 8, colour type 2 (RGB), deflate, adaptive filtering, no interlace
  return chunk('IHDR', Buffer.concat([u32(frame.width, frame.height), Buffer.from([8, 2, 0, 0, 0])]));
}

export function encodePng(frame: Frame): Buffer {
  return Buffer.concat([SIGNATURE, header(frame), chunk('IDAT', imageData(frame)), chunk('IEND', Buffer.alloc(0))]);
}
