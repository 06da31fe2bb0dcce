// Settled payments' funds clear after the clearing period (the processor's delay): each payment's net amount, less
// what was refunded meanwhile and what its dispute holds (open, lost or closed: the network took it back), moves from
// pending to available, once. The part withheld for the dispute is recorded (dispute_withheld): a dispute won or
// prevented after clearing returns that part to available (handlers/disputes/dispute-ledger.ts). A sweep every minute clears what is due, so
// settling a payment costs no extra statement. An account whose funds are held without a date
// (payment_controls.undated_pending_reason: compliance review, KYC, ...) keeps them pending; the sweep skips it
// until the reason is lifted, then clears everything due.
// The sweep takes only the payments of accounts in the current clock scope (handlers/shared/sweep-scope.ts): the cron
// clears those of accounts at real time, and a sandbox clock's advance clears its accounts' at each due instant of its
// own time (clearingSweep, registered in wiring/clock-sweeps.ts).
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import type { ClockSweep } from '../../runtime/clock-advance.js';
import { isoOrNull, sweepClockId, sweepScope } from '../shared/sweep-scope.js';
import { nowMs } from '../shared/now.js';
import { ledgerOf } from './ledgers.js';
import { postEntries, type Entry } from './post.js';
import { autoTopUpLedger, recordAutoTopUp } from './clearing-auto-top-up.js';
import { settlePartnerEarnings } from './clearing-partner-earnings.js';

export const CLEAR_DUE_FUNDS = 'clear_due_funds';

/** Seconds between settlement and clearing. */
export const clearingSeconds = () => Number(process.env.FUNDS_CLEARING_SECONDS ?? 2 * 24 * 3600);
const BATCH = 500;

// At real time a held account's due payments are set aside (funds_held: out of payments_funds_to_clear, the index the
// sweep walks), so that each is read once, not every minute for as long as the hold lasts
// (migrations/596_held_funds_off_clearing_index.ts). Put back here once the hold is lifted: the accounts with payments
// set aside are found one index probe each (a skip scan of payments_funds_held), whatever their number of payments.
const PUT_BACK_RELEASED = `with recursive aside(account_id) as (
    (select account_id from payments where funds_held order by account_id limit 1)
    union all
    select (select p.account_id from payments p where p.funds_held and p.account_id > s.account_id order by p.account_id limit 1)
    from aside s where s.account_id is not null)
  update payments p set funds_held = false from aside s, accounts a
  where a.id = s.account_id and a.undated_pending_reason is null and p.account_id = s.account_id and p.funds_held`;

interface DueRow { id: string; account_id: string; currency: string; total: string; fee_amount: string; refunded_amount: string; held: boolean }

/** Clears up to one batch of due payments (at real time, setting aside those of held accounts); returns how many it
 * took (the sweep repeats while a batch is full). */
export async function clearDueFunds(db: Knex): Promise<number> {
  const scope = sweepScope('p.account_id');
  const realTime = sweepClockId() === null;
  return db.transaction(async (trx) => {
    if (realTime) await trx.raw(PUT_BACK_RELEASED);
    const taken: DueRow[] = await trx('payments as p').join('accounts as a', 'a.id', 'p.account_id')
      .whereNull('p.funds_cleared_at').whereNotNull('p.settlement_time_at')
      .where('p.settlement_time_at', '<=', trx.raw(`now() - make_interval(secs => ?)`, [clearingSeconds()]))
      .modify((q) => (realTime ? q.whereRaw('not p.funds_held') : q.whereNull('a.undated_pending_reason')))
      .whereRaw(scope.sql, scope.bindings)
      .orderBy('p.settlement_time_at').limit(BATCH).forUpdate('p').skipLocked()
      .select('p.id', 'p.account_id', 'p.currency', 'p.total', 'p.fee_amount', 'p.refunded_amount',
        trx.raw('a.undated_pending_reason is not null as held'));
    const aside = taken.filter((p) => p.held).map((p) => p.id);
    if (aside.length) await trx('payments').whereIn('id', aside).update({ funds_held: true });
    const due = taken.filter((p) => !p.held);
    const disputed = await heldByDisputes(trx, due.map((p) => p.id));
    const entries: Entry[] = [];
    const topUps: { payment: (typeof due)[number]; amount: number }[] = [];
    for (const payment of due) {
      const owed = Math.max(0, Number(payment.total) - Number(payment.fee_amount) - Number(payment.refunded_amount));
      const withheld = Math.min(owed, disputed.get(payment.id) ?? 0);
      const amount = owed - withheld;
      if (withheld > 0) await trx('payments').where({ id: payment.id }).update({ dispute_withheld: withheld });
      const ledger = await ledgerOf(trx, payment.account_id);
      // With cards_auto_top_up on, the funds become spendable on the cards balance instead.
      const cards = await autoTopUpLedger(trx, payment);
      entries.push({ id: `${payment.id}:cleared`, currency: payment.currency, postings: [
        { ledger, bucket: 'pending', amount: -amount },
        { ledger: cards ?? ledger, bucket: 'available', amount },
      ] });
      if (cards && amount > 0) topUps.push({ payment, amount });
    }
    // A referred payment's partner earnings settle with it (clearing-partner-earnings.ts).
    entries.push(...await settlePartnerEarnings(trx, due.map((p) => p.id)));
    // One statement for the batch: its balance rows are locked in one order (handlers/ledger/post.ts postEntries).
    await postEntries(trx, entries);
    for (const { payment, amount } of topUps) await recordAutoTopUp(trx, payment, amount);
    if (due.length) await trx('payments').whereIn('id', due.map((p) => p.id)).update({ funds_cleared_at: nowMs(trx), funds_held: false });
    return taken.length;
  });
}

/** What disputes hold of each payment: the amounts of its disputes not won or prevented. Whoever changes a dispute
 * holds its payment's lock (handlers/disputes/network.ts), as the sweep does, so this cannot move under it. */
async function heldByDisputes(trx: Knex, paymentIds: string[]): Promise<Map<string, number>> {
  if (!paymentIds.length) return new Map();
  const rows = await trx('disputes').whereIn('payment_id', paymentIds).whereIn('status', ['needs_response', 'under_review', 'lost', 'closed'])
    .groupBy('payment_id').select('payment_id', trx.raw('sum(amount)::bigint as amount'));
  return new Map(rows.map((r: { payment_id: string; amount: string }) => [r.payment_id, Number(r.amount)]));
}

export const clearDueFundsTask = (db: Knex): Task => async () => {
  while ((await clearDueFunds(db)) === BATCH);
};

/** When the next payment in scope clears: the earliest settlement of those not cleared, plus the clearing period
 * (an account whose funds are held without a date has nothing due). */
export async function nextClearingAt(db: Knex): Promise<string | null> {
  const scope = sweepScope('p.account_id');
  const row = await db('payments as p').join('accounts as a', 'a.id', 'p.account_id')
    .whereNull('p.funds_cleared_at').whereNotNull('p.settlement_time_at').whereNull('a.undated_pending_reason')
    .whereRaw(scope.sql, scope.bindings)
    .first(db.raw('min(p.settlement_time_at) + make_interval(secs => ?) as due', [clearingSeconds()]));
  return isoOrNull(row?.due);
}

export const clearingSweep: ClockSweep = {
  name: CLEAR_DUE_FUNDS,
  nextDueAt: nextClearingAt,
  run: async (db) => { while ((await clearDueFunds(db)) === BATCH); },
};
