// Secrets for API keys and user tokens: shown once, stored only as a SHA-256 hash.
import { createHash } from 'node:crypto';
import { randomToken } from './ids.js';

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export function newSecret(prefix: 'sk_' | 'utok_'): { secret: string; hash: string; hint: string } {
  const secret = `${prefix}${randomToken(40)}`;
  return { secret, hash: hashSecret(secret), hint: `${secret.slice(0, prefix.length + 4)}…${secret.slice(-4)}` };
}
