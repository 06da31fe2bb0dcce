// An earning is paid when the payment that earned it settles: the clearing sweep (clearing.ts) calls this in its
// transaction (it lives with the sweep, below handlers/partners/, which posts through the ledger) for the payments whose funds it clears, with those payment rows locked (the lock order:
// payments, then earning rows, then postings, as the reversals take them). Each earning still awaiting settlement
// becomes completed (payout_at the instant) and what is left of its commission after reversals so far moves from the
// partner's pending balance to available. Once per earning: a completed one is never cleared again.
import type { Knex } from 'knex';
import { ledgerOf } from './ledgers.js';
import type { Entry } from './post.js';
import { nowMs } from '../shared/now.js';

/** The entries (one per payment, <payment id>:partner_settled) for the caller to post with its own. */
export async function settlePartnerEarnings(db: Knex, paymentIds: string[]): Promise<Entry[]> {
  if (paymentIds.length === 0) return [];
  const rows = (await db.raw(`select e.id, e.payment_id, e.commission_amount, b.partner_user_id, p.currency,
      coalesce((select sum(r.commission_amount) from partner_earnings r where r.reverses_id = e.id), 0) as reversed
    from partner_earnings e join partner_businesses b on b.id = e.partner_business_id join payments p on p.id = e.payment_id
    where e.payment_id = any(?) and e.status = 'awaiting_settlement' order by e.id for update of e`, [paymentIds])).rows;
  if (rows.length === 0) return [];
  await db('partner_earnings').whereIn('id', rows.map((r: { id: string }) => r.id)).update({ status: 'completed', payout_at: nowMs(db), updated_at: nowMs(db) });
  const entries = new Map<string, Entry>();
  for (const row of rows) {
    const net = Number(row.commission_amount) + Number(row.reversed);
    if (net <= 0) continue;
    const ledger = await ledgerOf(db, row.partner_user_id);
    const entry: Entry = entries.get(row.payment_id) ?? { id: `${row.payment_id}:partner_settled`, currency: row.currency, postings: [] };
    entry.postings.push({ ledger, bucket: 'pending', amount: -net }, { ledger, bucket: 'available', amount: net });
    entries.set(row.payment_id, entry);
  }
  return [...entries.values()];
}
