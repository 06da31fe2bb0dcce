// What an Economic Intelligence period costs the account: the offer's price, in minor units of the offer's currency,
// taken from the account's business balance (available) to its fees, as ads billing pays from a balance
// (handlers/ads/billing.ts). One entry per period, named by the account and the period's start, so a period is
// never charged twice; the floor on available refuses it (400 insufficient_funds) when the balance cannot cover it.
import type { Knex } from 'knex';
import { ledgerOf, postEntry } from '../ledger/index.js';

export interface PricedOffer { key: string; price_amount: number | string; currency: string }

export const periodEntryId = (accountId: string, periodStart: Date) => `${accountId}:ei:${periodStart.toISOString()}`;

export async function chargePeriod(db: Knex, accountId: string, offer: PricedOffer, periodStart: Date, param: string): Promise<void> {
  const price = Number(offer.price_amount);
  if (price === 0) return;
  const ledger = await ledgerOf(db, accountId);
  await postEntry(db, periodEntryId(accountId, periodStart), offer.currency, [
    { ledger, bucket: 'available', amount: -price },
    { ledger, bucket: 'fees', amount: price },
  ], param);
}
