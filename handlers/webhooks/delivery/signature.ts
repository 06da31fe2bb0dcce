// Standard Webhooks signatures: v1,<base64 HMAC-SHA256 of "id.timestamp.body"> keyed with the whsec_ secret's bytes.
import { createHmac, timingSafeEqual } from 'node:crypto';

const keyOf = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** What a receiver does: any of the space-separated signatures may match; timestamps older than `toleranceS` fail. */
export function verify(secret: string, headers: { id: string; timestamp: string; signature: string }, body: string,
  toleranceS = 300, now = Date.now()): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs(now / 1000 - ts) > toleranceS) return false;
  const expected = Buffer.from(sign(secret, headers.id, ts, body));
  return headers.signature.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
