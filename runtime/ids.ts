// Object ids, secrets' random parts, request ids and nonces, drawn from one pool of random bytes.
//
// The pool is 4 KiB from the operating system's CSPRNG (crypto.randomBytes), refilled when spent: one crypto call per
// ~200 ids instead of one each (randomBytes(32) costs ~6 µs of CPU in `node` alone, 4 KiB ~9 µs; each call takes
// OpenSSL's locks and checks the process id). The bytes are the same CSPRNG output, so they serve secrets and nonces
// as well as ids; Node's own randomUUID keeps such a pool. A refill makes a new buffer rather than writing over the
// old one, so bytes handed out (randomBytesFromPool) never change under their holder. API processes are spawned, not
// forked from a running one, so no two processes start with the same pool.
import { randomBytes } from 'node:crypto';

const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/** `n` (≤ 4 KiB) fresh random bytes: a view of the pool, never reused nor overwritten. */
export function randomBytesFromPool(n: number): Buffer {
  if (n > POOL_SIZE) return randomBytes(n);
  if (offset + n > pool.length) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  offset += n;
  return pool.subarray(offset - n, offset);
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters of base62, uniform: bytes of 248 and more are drawn again (248 = 4 × 62). */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    const bytes = randomBytesFromPool(length - out.length + 4);
    for (let i = 0; i < bytes.length && out.length < length; i++) {
      if (bytes[i] < 248) out += ALPHABET[bytes[i] % 62];
    }
  }
  return out;
}

export function newId(prefix: string): string {
  return `${prefix}${randomToken(16)}`;
}

/** A request's id: 12 random bytes as base64url. */
export const newRequestId = (): string => `req_${randomBytesFromPool(12).toString('base64url')}`;
