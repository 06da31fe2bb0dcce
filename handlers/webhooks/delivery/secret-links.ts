// Events keep no secret in their stored data (a transfer's tracking_url, a 3-D Secure step's url, a membership's
// license_key): each is made again from its object's id as a delivery is sent, the way responses make them
// (handlers/transfers/transfer-secrets.ts, handlers/shared/authentication-link.ts), or read again from its row,
// where a membership's key never changes (handlers/memberships/license-key.ts).
import type { Knex } from 'knex';
import { specData } from '../../../generated/spec-data.js';
import { shownLicenseKey } from '../../memberships/index.js';
import { trackingUrl } from '../../transfers/index.js';
import { paymentNextAction, setupIntentNextAction } from '../../shared/authentication-link.js';
import type { EventRow } from './envelope.js';

export async function withSecretLinks(db: Knex, event: EventRow): Promise<void> {
  const data = event.data as Record<string, any> | null;
  if (!data || typeof data.id !== 'string') return;
  switch ((specData.events as Record<string, string>)[event.type]) {
    case 'Transfer': data.tracking_url = trackingUrl(data.id); break;
    case 'Payment': data.next_action = paymentNextAction(data); break;
    case 'SetupIntent': data.next_action = setupIntentNextAction(data); break;
    case 'Membership': {
      const row = await db('memberships').where({ id: data.id }).first('license_key_sealed');
      data.license_key = row ? shownLicenseKey(row) : null;
      break;
    }
  }
}
