// A transfer's events go to each business account it touches (a personal wallet has no webhooks); a transfer
// between wallets is still recorded, with no account.
import type { EventType } from '../../generated/spec-data.js';
import type { Transfer } from '../../generated/types.js';
import type { Effects } from '../../generated/effects.js';
import { isWallet } from './transfer-access.js';

/** The event keeps no secret link (handlers/transfers/transfer-secrets.ts): a delivery puts tracking_url back. */
export async function emitToSides(fx: Effects, type: EventType, transfer: Transfer): Promise<void> {
  const view = { ...transfer, tracking_url: null, claim_url: null };
  const accounts = [...new Set([view.origin.id, view.destination?.id].filter((id): id is string => !!id && !isWallet(id)))];
  if (accounts.length === 0) return fx.emit(type, null, view);
  for (const account of accounts) await fx.emit(type, account, view);
}
