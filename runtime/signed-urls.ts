// Signed, expiring links for routes without credentials (file uploads and private downloads): the path and an
// expiry instant, signed with HMAC-SHA256 under the server's signing secret. FILE_SIGNING_SECRET sets it (every
// machine serving the same files needs the same one); unset, a random secret is made once and kept beside the
// local file store (runtime/file-storage.ts), which every process of one machine shares.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { storageRoot } from './file-storage.js';

const secrets = new Map<string, Buffer>();
/** FILE_SIGNING_SECRET as last read, and its bytes: one Buffer per secret, which runtime/sealed-secrets.ts keys its
 * derived keys by (a create seals its stored answer, and each seal asked for the secret). */
let configured: { text: string; bytes: Buffer } | undefined;

/** The server's own secret: signs these links, and keys the secrets sealed at rest (runtime/sealed-secrets.ts). The
 * same secret is the same Buffer, call after call. */
export function signingSecret(): Buffer {
  const text = process.env.FILE_SIGNING_SECRET;
  if (text) {
    if (configured?.text !== text) configured = { text, bytes: Buffer.from(text) };
    return configured.bytes;
  }
  const root = storageRoot();
  let secret = secrets.get(root);
  if (secret) return secret;
  const file = join(root, '.signing-secret');
  mkdirSync(root, { recursive: true });
  try {
    // 'wx': only the first process to get here writes it; the others read what it wrote.
    writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  secret = Buffer.from(readFileSync(file, 'utf8').trim());
  secrets.set(root, secret);
  return secret;
}

const signature = (path: string, expires: number): string =>
  createHmac('sha256', signingSecret()).update(`${path}\n${expires}`).digest('base64url');

/** `path?expires=<unix seconds>&signature=<HMAC>`, valid until `expiresAt`. */
export function signPath(path: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${path}?expires=${expires}&signature=${signature(path, expires)}`;
}

export type SignatureCheck = 'valid' | 'invalid' | 'expired';

/** Whether the query's signature is the path's, and still in force at `now`. */
export function checkSignature(path: string, query: { expires?: unknown; signature?: unknown }, now = Date.now()): SignatureCheck {
  const { expires, signature: given } = query;
  if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof given !== 'string') return 'invalid';
  const expected = Buffer.from(signature(path, Number(expires)));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return 'invalid';
  return Number(expires) * 1000 <= now ? 'expired' : 'valid';
}
