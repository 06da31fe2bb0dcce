// The rail's reports on a payout, applied by this area: the payout is locked and shown to the rail, and what the rail
// reports (sent to review, sent, paid, failed, denied, returned) moves its status, posts its money
// (payout-ledger.ts) and records its event, all in one transaction. A report the payout's status no longer allows
// is refused by the state machine, and a rail that has nothing to report leaves the payout alone, so a re-run
// step is harmless.
import type { Knex } from 'knex';
import { transition } from '../../generated/state-machine.js';
import type { EventType, StateAction } from '../../generated/spec-data.js';
import { recordEvent } from '../../generated/events.js';
import { nowMs } from '../shared/now.js';
import { completePayout, releasePayout, reversePayout } from './payout-ledger.js';
import { findPayoutRow, payoutView, type PayoutRow } from './payout-view.js';

/** What the rail sees of a payout. */
export interface RailPayout {
  id: string;
  status: string;
  amount: number;
  speed: 'standard' | 'instant';
  /** the method's destination number (an account number, a card, an address) */
  destination: string;
  account_created_at: Date | null;
  failure_code: string | null;
}

export interface RailReport {
  action: StateAction<'Payout'>;
  detail: string | null;
  failure?: { code: string; message: string };
}

/** The rail's report on a payout, asked in the transaction that applies it (`trx`, so the rail can queue its own
 * next step with it); null when it has nothing to report. */
export type RailReporter = (payout: RailPayout, trx: Knex) => Promise<RailReport | null>;

const railPayout = (p: PayoutRow, accountCreatedAt: Date | null): RailPayout => ({
  id: p.id, status: p.status, amount: Number(p.amount), speed: p.speed, destination: p.$method.destination_number,
  account_created_at: accountCreatedAt, failure_code: p.failure_code ?? null,
});

/** Applies the rail's report on a payout; returns the status reached, or null when there was nothing to do. */
export async function takeRailReport(db: Knex, payoutId: string, report: RailReporter): Promise<string | null> {
  return db.transaction(async (trx) => {
    const p = await findPayoutRow(trx, payoutId, true);
    if (!p) return null;
    const createdAt = p.account_id ? (await trx('accounts').where({ id: p.account_id }).first('created_at'))?.created_at ?? null : null;
    const move = await report(railPayout(p, createdAt ? new Date(createdAt) : null), trx);
    if (!move) return null;
    const status = transition('Payout', p.status, move.action);
    if (move.action === 'complete') await completePayout(trx, p);
    if (move.action === 'deny' || move.action === 'fail') await releasePayout(trx, p);
    if (move.action === 'reverse') await reversePayout(trx, p);
    const returned = ['deny', 'fail', 'reverse'].includes(move.action);
    const [row] = await trx('payouts').where({ id: p.id }).update({
      status, status_detail: move.detail, updated_at: nowMs(trx),
      ...(move.action === 'complete' ? { completed_at: nowMs(trx), trace_code: `TRC${p.id.slice(-10).toUpperCase()}` } : {}),
      ...(move.failure ? { failure_code: move.failure.code, failure_message: move.failure.message } : {}),
      ...(returned && move.failure ? { funds_returned_at: nowMs(trx) } : {}),
    }).returning('*');
    const view = await payoutView(trx, { ...row, $method: p.$method });
    await recordEvent(trx, `payout.${status}` as EventType, p.account_id, view);
    return status;
  });
}
