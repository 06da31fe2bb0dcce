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

/** The offset in `pool` of `n` (≤ POOL_SIZE) fresh bytes, refilling it first when spent; read `pool` after. */
function take(n: number): number {
  if (offset + n > pool.length) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  offset += n;
  return offset - n;
}

/** `n` fresh random bytes: a view of the pool (never reused nor overwritten), or a draw of their own past 4 KiB. */
export function randomBytesFromPool(n: number): Buffer {
  if (n > POOL_SIZE) return randomBytes(n);
  const at = take(n);
  return pool.subarray(at, at + n);
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters of base62, uniform: bytes of 248 and more are drawn again (248 = 4 × 62). */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    const n = Math.min(length - out.length + 4, POOL_SIZE);
    const at = take(n);
    for (let i = at; i < at + n && out.length < length; i++) {
      const b = pool[i];
      if (b < 248) out += ALPHABET[b % 62];
    }
  }
  return out;
}

export function newId(prefix: string): string {
  return `${prefix}${randomToken(16)}`;
}

/** A request's id: 12 random bytes as base64url, read from the pool where they lie. */
export function newRequestId(): string {
  const at = take(12);
  return `req_${pool.toString('base64url', at, at + 12)}`;
}
