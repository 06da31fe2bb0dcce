// payment_controls.undated_pending_reason: why an account's funds are held back (payouts refused,
// handlers/payouts/request-payout.ts; funds kept from clearing, handlers/ledger/clearing.ts). One reason at a time;
// who sets and clears each (docs/sandbox/identity-checker.md, "Funds held back"):
//   withdrawals_disabled         the platform operator (npm run cli -- operator --withdrawals disable|enable)
//   compliance_review            POST /sandbox/accounts/{id}/compliance_review, cleared by .../compliance_review/resolve
//   pending_information_request  the sandbox reviewer asking for answers again; cleared when they are all answered
//   kyc_incomplete               cleared by an approved identity verification
// A reason is set only over no reason (the operator's switch excepted: it overrides), and cleared only by its own
// clearer, so one clearer never releases funds that another reason holds.
import type { Knex } from 'knex';
import { nowMs } from '../shared/now.js';
import { keepOnRefusal } from '../../runtime/request-db.js';

export type HoldReason = 'withdrawals_disabled' | 'compliance_review' | 'pending_information_request' | 'kyc_incomplete';

/** The statement holding the account's funds for `reason`, unless another reason already does (or `override`). */
function holdStatement(db: Knex, accountId: string, reason: HoldReason, override: boolean): Knex.QueryBuilder {
  const q = db('accounts').where({ id: accountId });
  if (!override) q.whereNull('undated_pending_reason');
  return q.update({ undated_pending_reason: reason, updated_at: nowMs(db) });
}

/** Holds the account's funds for `reason` unless another reason already does; answers the reason now in force. */
export async function holdFunds(db: Knex, accountId: string, reason: HoldReason, override = false): Promise<string | null> {
  await holdStatement(db, accountId, reason, override);
  return (await db('accounts').where({ id: accountId }).first('undated_pending_reason'))?.undated_pending_reason ?? null;
}

/** The same hold, in a write that stands when the request is refused (runtime/request-db.ts keepOnRefusal): for a
 * refusal whose meaning is the hold. */
export function holdFundsOnRefusal(db: Knex, accountId: string, reason: HoldReason): Promise<void> {
  const { sql, bindings } = holdStatement(db, accountId, reason, false).toSQL().toNative();
  return keepOnRefusal(db, sql, [...bindings]);
}

/** Releases the account's funds if `reason` is what holds them; answers whether it did. */
export async function releaseFunds(db: Knex, accountId: string, reason: HoldReason): Promise<boolean> {
  const n = await db('accounts').where({ id: accountId, undated_pending_reason: reason })
    .update({ undated_pending_reason: null, updated_at: nowMs(db) });
  return n > 0;
}
