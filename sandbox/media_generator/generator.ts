// The simulated generator: draws a deterministic picture from the prompt (a SHA-256 of prompt and resolution picks
// two colours and a stripe pattern); an image is that picture as a PNG, a video the same picture scrolling, FPS frames
// a second, as an MP4 (H.264). Same input, same bytes. The sandbox value FAIL_MARKER in a prompt makes it refuse, as
// a real generator's content filter would.
import { createHash } from 'node:crypto';
import { encodePng, type Frame } from './png.js';
import { encodeMp4 } from './mp4.js';
import type { MediaRequest, Resolution } from '../../handlers/media/index.js';

export const FAIL_MARKER = '[fail]';
export const FPS = 8;
export const SIZES: Record<Resolution, number> = { low: 64, standard: 128, high: 256 };

export class GeneratorRefused extends Error {}

function draw(seed: Buffer, size: number, shift: number): Frame {
  const rgb = new Uint8Array(size * size * 3);
  const [a, b] = [seed.subarray(0, 3), seed.subarray(3, 6)];
  const stripe = 4 + (seed[6]! % 12);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const band = Math.floor((x + y + shift) / stripe) % 2 === 0;
      const from = band ? a : b;
      const at = (y * size + x) * 3;
      // a vertical shade over the two colours, integer arithmetic only
      for (let c = 0; c < 3; c++) rgb[at + c] = (from[c]! * (size - y) + (255 - from[c]!) * y / 4) / size;
    }
  }
  return { width: size, height: size, rgb };
}

export function generate(input: MediaRequest): Buffer {
  if (input.prompt.toLowerCase().includes(FAIL_MARKER)) throw new GeneratorRefused('generator_refused');
  const seed = createHash('sha256').update(`${input.resolution}\n${input.prompt}`).digest();
  const size = SIZES[input.resolution];
  if (input.type === 'image') return encodePng(draw(seed, size, 0));
  const frames = Array.from({ length: FPS * input.duration_seconds! }, (_, i) => draw(seed, size, i * 2));
  return encodeMp4(frames, FPS);
}
