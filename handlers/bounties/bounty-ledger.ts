// The money of a bounty, in ledger entries on the funding account's business ledger (migrations/340_bounties.ts):
// the pool is escrowed available -> held at creation, each approval moves one reward from held to the worker's
// personal wallet, and ending the bounty moves what is still held back to available. Rewards are whole dollars, so
// every amount is an exact integer of cents: no rounding anywhere.
import type { Knex } from 'knex';
import { ledgerOf, postEntry } from '../ledger/index.js';
import { transition } from '../../generated/state-machine.js';
import { nowMs } from '../shared/now.js';

export const CENTS_PER_DOLLAR = 100;

export interface BountyRow {
  id: string;
  account_id: string;
  status: string;
  currency: string;
  gross_reward_amount: number;
  accepted_submissions_limit: number;
  accepted_submissions_count: number;
  escrow_amount: string | number;
  paid_out_amount: string | number;
  returned_amount: string | number;
}

export const rewardCents = (b: BountyRow) => Number(b.gross_reward_amount) * CENTS_PER_DOLLAR;

/** The bounty's bare row, locked: every change to its slots or escrow goes through this lock first. */
export const lockBounty = (db: Knex, id: string): Promise<BountyRow | undefined> =>
  db('bounties').where({ id }).forUpdate().first();

export async function escrowPool(db: Knex, bountyId: string, accountId: string, currency: string, cents: number): Promise<void> {
  const ledger = await ledgerOf(db, accountId);
  await postEntry(db, `${bountyId}:escrow`, currency, [
    { ledger, bucket: 'available', amount: -cents },
    { ledger, bucket: 'held', amount: cents },
  ], 'gross_reward_amount');
}

/** One reward from the locked bounty's escrow to the worker's wallet; the entry id is the submission's, so a second
 * payment of one submission could never post (the ledger's unique entry index) even if the state machine let it. */
export async function payReward(db: Knex, bounty: BountyRow, submissionId: string, workerId: string): Promise<void> {
  const cents = rewardCents(bounty);
  await postEntry(db, `${submissionId}:paid`, bounty.currency, [
    { ledger: await ledgerOf(db, bounty.account_id), bucket: 'held', amount: -cents },
    { ledger: await ledgerOf(db, workerId), bucket: 'available', amount: cents },
  ]);
  await db('bounties').where({ id: bounty.id }).update({
    accepted_submissions_count: Number(bounty.accepted_submissions_count) + 1,
    paid_out_amount: db.raw('paid_out_amount + ?', [cents]),
    updated_at: nowMs(db),
  });
}

/**
 * Ends a locked open bounty (closed by its account, or completed by its last approval): open attempts are denied
 * and what is left in escrow (escrow - paid out) goes back to available, once (the bounty leaves open here).
 */
export async function endBounty(db: Knex, bounty: BountyRow, action: 'close' | 'complete'): Promise<void> {
  const status = transition('Bounty', bounty.status, action);
  const fresh = await db('bounties').where({ id: bounty.id }).first('escrow_amount', 'paid_out_amount');
  const left = Number(fresh.escrow_amount) - Number(fresh.paid_out_amount);
  if (left > 0) {
    const ledger = await ledgerOf(db, bounty.account_id);
    await postEntry(db, `${bounty.id}:returned`, bounty.currency, [
      { ledger, bucket: 'held', amount: -left },
      { ledger, bucket: 'available', amount: left },
    ]);
  }
  await db('bounties').where({ id: bounty.id }).update({
    status, returned_amount: left, submissions_closed_at: nowMs(db), updated_at: nowMs(db),
  });
  const open = await db('bounty_submissions').where({ bounty_id: bounty.id }).whereNull('deleted_at')
    .whereIn('status', ['in_progress', 'submitted']).select('id', 'status');
  for (const s of open) transition('BountySubmission', s.status, 'close');
  if (open.length) {
    await db('bounty_submissions').whereIn('id', open.map((s) => s.id)).update({
      status: 'denied', denial_reason: 'bounty_closed', resolved_at: nowMs(db), updated_at: nowMs(db),
    });
  }
}
