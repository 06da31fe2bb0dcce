// Object ids: the resource's type prefix plus a random base62 part.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomToken(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length; i++) {
    const b = bytes[i % bytes.length];
    if (b < 248) out += ALPHABET[b % 62]; // 248 = 4 * 62: keeps the draw uniform
    if (i >= bytes.length - 1 && out.length < length) return out + randomToken(length - out.length);
  }
  return out;
}

export function newId(prefix: string): string {
  return `${prefix}${randomToken(16)}`;
}

// Request ids are drawn from a pool of random bytes refilled 4 KiB at a time: one crypto call per ~340 requests
// instead of one per request (each also checks the process id: a system call). They name requests; they guard nothing.
let randomPool = Buffer.alloc(0);
let poolOffset = 0;

export function newRequestId(): string {
  if (poolOffset + 12 > randomPool.length) {
    randomPool = randomBytes(4096);
    poolOffset = 0;
  }
  poolOffset += 12;
  return `req_${randomPool.toString('base64url', poolOffset - 12, poolOffset)}`;
}
