// The three entries of a generation's price on the account's ledger: reserved (available to held) when requested,
// then charged (held to fees) or released (held back to available). Entry ids are the asset's id and the step, so
// a step can only ever be posted once.
import type { Knex } from 'knex';
import { ledgerOf, postEntry, type Bucket } from '../ledger/index.js';

type Step = 'reserved' | 'charged' | 'released';
const MOVES: Record<Step, [from: Bucket, to: Bucket]> = {
  reserved: ['available', 'held'],
  charged: ['held', 'fees'],
  released: ['held', 'available'],
};

export async function postMediaPrice(db: Knex, asset: { id: string; account_id: string; currency: string; price: number | string }, step: Step): Promise<void> {
  const ledger = await ledgerOf(db, asset.account_id);
  const amount = Number(asset.price);
  const [from, to] = MOVES[step];
  await postEntry(db, `${asset.id}:${step}`, asset.currency, [
    { ledger, bucket: from, amount: -amount },
    { ledger, bucket: to, amount },
  ], 'price');
}
