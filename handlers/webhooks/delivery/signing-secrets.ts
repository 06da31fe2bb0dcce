// The webhook-signature header of a delivery: a v1 signature by the subscription's secret and, while a rotation's
// overlap lasts (POST /webhooks/{id}/rotate_secret), one by the previous secret too, space-separated as Standard
// Webhooks allows; a receiver verifying with either accepts it.
import { unseal } from '../../../runtime/sealed-secrets.js';
import { sign } from './signature.js';

export interface SigningSecrets {
  /** sealed */
  secret: string;
  /** sealed; signs until previous_secret_expires_at */
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
}

export function signatureHeader(webhook: SigningSecrets, id: string, timestamp: number, body: string, now = Date.now()): string {
  const secrets = [webhook.secret];
  if (webhook.previous_secret && webhook.previous_secret_expires_at && new Date(webhook.previous_secret_expires_at).getTime() > now) {
    secrets.push(webhook.previous_secret);
  }
  return secrets.map((sealed) => sign(unseal(sealed), id, timestamp, body)).join(' ');
}

/** The webhooks columns signatureHeader reads. */
export const SIGNING_COLUMNS = ['secret', 'previous_secret', 'previous_secret_expires_at'] as const;
