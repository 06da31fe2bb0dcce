// The sandbox payout rail: what a bank, card network, wallet or chain would do with a payout, as real state moved
// by background jobs (graphile-worker). Each run of the payout_rail_step task takes one step from the payout's
// current status, in one transaction with the payout locked, and queues the next; a step whose status has moved on
// does nothing, so a re-run job (after a crash) is harmless. The destination decides the outcome (test numbers in
// TEST_DESTINATIONS, documented in the README); every other destination is paid.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { transition } from '../../runtime/state-machine.js';
import type { EventType, StateAction } from '../../generated/spec-data.js';
import { addJob } from '../../runtime/jobs.js';
import { clockNow } from '../../runtime/clock.js';
import { recordEvent } from '../../runtime/events.js';
import { nowMs } from '../shared/now.js';

import { completePayout, releasePayout, reversePayout } from '../payouts/payout-ledger.js';
import { findPayoutRow, payoutView, type PayoutRow } from '../payouts/payout-view.js';

export const PAYOUT_RAIL_STEP = 'payout_rail_step';

/** Destination numbers (fields.account_number) with a scripted outcome. */
export const TEST_DESTINATIONS = {
  /** the rail cannot deliver: failed, R03 */
  fails: '000111111116',
  /** delivered, then returned by the bank: completed, then reversed with R02 */
  reversed: '000222222227',
  /** always reviewed, and review refuses it: denied */
  denied: '000333333335',
} as const;

/** Review: amounts of 10,000.00 or more, and 1,000.00 or more from an account younger than a day. */
export const REVIEW_AMOUNT = 1_000_000;
export const NEW_ACCOUNT_REVIEW_AMOUNT = 100_000;
const NEW_ACCOUNT_MS = 24 * 3600 * 1000;

/** How long the sandbox takes per step, in seconds (PAYOUT_RAIL_SECONDS scales them; 0 makes every step immediate). */
const scale = () => Number(process.env.PAYOUT_RAIL_SECONDS ?? 1);
const DELAYS = { review: 30, standard: 20, instant: 2, returned: 30 };
const after = (seconds: number) => new Date(clockNow().getTime() + seconds * scale() * 1000);

export async function queueStep(db: Knex, payoutId: string, runAt?: Date): Promise<void> {
  await addJob(db, PAYOUT_RAIL_STEP, { payout_id: payoutId }, { jobKey: `${PAYOUT_RAIL_STEP}:${payoutId}`, runAt });
}

/** Whether a new payout goes to review first. */
export function needsReview(p: { amount: number; destination: string }, accountCreatedAt: Date | null): boolean {
  if (p.destination === TEST_DESTINATIONS.denied || p.amount >= REVIEW_AMOUNT) return true;
  return accountCreatedAt !== null && clockNow().getTime() - accountCreatedAt.getTime() < NEW_ACCOUNT_MS && p.amount >= NEW_ACCOUNT_REVIEW_AMOUNT;
}

interface Move { action: StateAction<'Payout'>; detail: string | null; failure?: { code: string; message: string }; next?: number }

function nextMove(p: PayoutRow): Move | null {
  const destination = p.$method.destination_number;
  switch (p.status) {
    case 'requested':
      return needsReview({ amount: Number(p.amount), destination }, p.$account_created_at ? new Date(p.$account_created_at) : null)
        ? { action: 'review', detail: 'Held for review: a large amount or a new account.', next: DELAYS.review }
        : { action: 'process', detail: 'Sent to the rail.', next: DELAYS[p.speed as 'standard' | 'instant'] };
    case 'in_review':
      return destination === TEST_DESTINATIONS.denied
        ? { action: 'deny', detail: 'Review refused the payout.' }
        : { action: 'process', detail: 'Approved in review; sent to the rail.', next: DELAYS[p.speed as 'standard' | 'instant'] };
    case 'processing':
      return destination === TEST_DESTINATIONS.fails
        ? { action: 'fail', detail: 'The destination could not be found.', failure: { code: 'R03', message: 'No account / unable to locate account' } }
        : { action: 'complete', detail: 'Delivered.', next: destination === TEST_DESTINATIONS.reversed ? DELAYS.returned : undefined };
    case 'completed':
      return destination === TEST_DESTINATIONS.reversed && !p.failure_code
        ? { action: 'reverse', detail: 'The destination bank returned the payout.', failure: { code: 'R02', message: 'Account closed' } }
        : null;
    default:
      return null;
  }
}

/** One step of a payout; returns the status it reached, or null when there was nothing to do. */
export async function stepPayout(db: Knex, payoutId: string): Promise<string | null> {
  return db.transaction(async (trx) => {
    const p = await findPayoutRow(trx, payoutId, true);
    if (!p) return null;
    if (p.account_id) p.$account_created_at = (await trx('accounts').where({ id: p.account_id }).first('created_at'))?.created_at ?? null;
    const move = nextMove(p);
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
    if (move.next !== undefined) await queueStep(trx, p.id, after(move.next));
    return status;
  });
}

export const payoutRailStepTask = (db: Knex): Task => async (payload) => {
  await stepPayout(db, (payload as { payout_id: string }).payout_id);
};
