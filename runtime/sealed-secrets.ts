// Secrets at rest. What the server must read back (a webhook's signing secret, a setup intent's client_secret, a
// stored response that shows a secret once) is sealed: AES-256-GCM under a key derived from the server's secret
// (runtime/signed-urls.ts signingSecret: FILE_SIGNING_SECRET, or the one kept beside the local file store), so a
// copy of the database alone reveals none of them. What the server only recognises (API keys, user tokens, claim
// codes, receipt tokens, OAuth states) is stored as hashSecret (runtime/credentials.ts) instead. What it can make
// again from a row's id (a 3-D Secure step's token) is derived, and only its hash stored.
//
// Losing the server's secret loses what it sealed: every machine serving one database needs the same
// FILE_SIGNING_SECRET (as for file links).
import { createCipheriv, createDecipheriv, createHash, createHmac } from 'node:crypto';
import { signingSecret } from './signed-urls.js';
import { randomBytesFromPool } from './ids.js';

const PREFIX = 'sealed:v1:';
/** purpose -> key, per secret (signingSecret gives one Buffer per secret) */
const keys = new WeakMap<Buffer, Map<string, Buffer>>();

function keyFor(purpose: string): Buffer {
  const secret = signingSecret();
  let derived = keys.get(secret);
  if (!derived) keys.set(secret, (derived = new Map()));
  let key = derived.get(purpose);
  if (!key) {
    key = createHmac('sha256', secret).update(`commerce ${purpose}`).digest();
    derived.set(purpose, key);
  }
  return key;
}

/** `text` encrypted for storage: `sealed:v1:<iv>.<tag>.<ciphertext>`, each base64url. */
export function seal(text: string): string {
  const iv = randomBytesFromPool(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor('sealed secrets'), iv);
  const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return `${PREFIX}${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${data.toString('base64url')}`;
}

export const isSealed = (stored: string) => stored.startsWith(PREFIX);

/** What seal() sealed. Text stored before sealing existed (not sealed) is returned as it is. */
export function unseal(stored: string): string {
  if (!isSealed(stored)) return stored;
  const [iv, tag, data] = stored.slice(PREFIX.length).split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', keyFor('sealed secrets'), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A secret of 32 letters and digits made again from `subject` (a row's id) whenever it is shown, never stored:
 * the row keeps only its hashSecret, to find it by. */
export function derivedSecret(purpose: string, subject: string): string {
  const digest = createHmac('sha256', keyFor(purpose)).update(subject).digest();
  const more = createHash('sha256').update(digest).digest();
  return [...Buffer.concat([digest, more])].slice(0, 32).map((b) => ALPHANUMERIC[b % 62]).join('');
}
