// Claim links after their creation: a claim takes one share out of the held bucket into the claimant's personal
// wallet; expiry (a background job at expires_at) and cancellation give back what is still held. Every path locks
// the link's row first and re-reads it, so concurrent claims take shares one at a time and a task run again after a
// crash finds the link already ended and does nothing.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import type { Transfer } from '../../generated/types.js';
import { effectsOn, type Effects } from '../../generated/effects.js';
import { transition } from '../../generated/state-machine.js';
import { newId } from '../../runtime/ids.js';
import { trackingTokenHash } from './transfer-secrets.js';
import { nowMs } from '../shared/now.js';
import { accountNowSql } from '../shared/account-time.js';
import { postEntry } from './transfer-ledger.js';
import { loadTransferView, type TransferTableRow } from './transfer-view.js';
import { emitToSides } from './transfer-events.js';

export const CLAIM_LINK_EXPIRY = 'expire_claim_link';

/** A claim link's row: made with its code and its expiry (createTransfer.ts). */
export type ClaimLinkRow = TransferTableRow & { claim_code: string; expires_at: string; due: boolean };

/** The link's row, locked for the rest of the transaction, with `due`: whether expires_at has come by its sender's
 * time (a sandbox clock's when the sender runs on one, whoever claims). Undefined when the id is not a claim link. */
export async function lockClaimLink(db: Knex, id: string): Promise<ClaimLinkRow | undefined> {
  return db('transfers').where({ id, type: 'claim_link' }).forUpdate().first('*', db.raw(`expires_at <= ${accountNowSql('transfers.origin_id')} as due`));
}

/** An invite's user hears of it in their notifications (read once they claim it). */
export async function inviteNotification(db: Knex, link: Transfer): Promise<void> {
  await db('notifications').insert({
    id: newId('ntf_'),
    user_id: link.destination!.id,
    type: 'transfer_invitation',
    data: JSON.stringify({ transfer_id: link.id, from: link.origin.name, amount: link.amount, expires_at: link.expires_at }),
  });
}

/** One share of a locked, pending, unexpired link into `claimant`'s wallet; the claim's own transfer row, or
 * undefined when this user already claimed the link. */
export async function claimShare(db: Knex, link: TransferTableRow, claimant: string, claimantBalance: string): Promise<string | undefined> {
  const claimed = Number(link.claimed_count) + 1;
  const status = transition('Transfer', link.status, claimed === Number(link.redeemable_count) ? 'claim_last' : 'claim');
  const id = newId('xfer_');
  const [inserted] = await db('transfers').insert({
    id, type: 'balance', status: 'completed', origin_id: link.origin_id, origin_ledger_id: link.origin_ledger_id,
    destination_id: claimant, destination_ledger_id: claimantBalance, claim_link_id: link.id, currency: link.currency,
    amount: link.amount, fee: link.fee, tracking_token: trackingTokenHash(id),
  }).onConflict(db.raw('(claim_link_id, destination_id) where claim_link_id is not null')).ignore().returning('id');
  if (!inserted) return undefined;
  const amount = Number(link.amount);
  const fee = Number(link.fee);
  await postEntry(db, id, link.currency, [
    { side: link.origin_id, bucket: 'held', amount: -(amount + fee) },
    { side: claimant, bucket: 'available', amount },
    { side: 'platform', bucket: 'fees', amount: fee },
  ]);
  await db('transfers').where({ id: link.id }).update({ claimed_count: claimed, status, updated_at: nowMs(db) });
  await db('notifications').where({ user_id: claimant, type: 'transfer_invitation', read_at: null })
    .whereRaw("data->>'transfer_id' = ?", [link.id]).update({ read_at: nowMs(db) });
  return id;
}

/** Ends a locked pending link (expire or cancel) and gives back the shares still held, with their fees. */
export async function endClaimLink(fx: Effects, link: TransferTableRow, action: 'expire' | 'cancel'): Promise<Transfer> {
  const status = transition('Transfer', link.status, action);
  const unclaimed = Number(link.redeemable_count) - Number(link.claimed_count);
  const held = unclaimed * (Number(link.amount) + Number(link.fee));
  if (held > 0) {
    await postEntry(fx.db, `${link.id}:returned`, link.currency, [
      { side: link.origin_id, bucket: 'held', amount: -held },
      { side: link.origin_id, bucket: 'available', amount: held },
    ]);
  }
  await fx.db('transfers').where({ id: link.id }).update({
    status, failed_at: nowMs(fx.db), funds_returned_at: held > 0 ? nowMs(fx.db) : null, updated_at: nowMs(fx.db),
  });
  const view = await loadTransferView(fx.db, link.id);
  await emitToSides(fx, action === 'expire' ? 'transfer.expired' : 'transfer.canceled', view);
  return view;
}

/** expire_claim_link: at expires_at, a link still pending expires. Run again, or after a claim took the last share
 * or a cancel, it finds nothing to do. */
export async function expireClaimLink(db: Knex, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const link = await lockClaimLink(trx, id);
    if (!link || link.status !== 'pending') return;
    if (!link.due) {
      // Run early (the worker's clock ahead of the database's): come back at expiry.
      await effectsOn(trx).addJob(CLAIM_LINK_EXPIRY, { transfer_id: id }, { jobKey: `${CLAIM_LINK_EXPIRY}:${id}`, runAt: new Date(link.expires_at) });
      return;
    }
    await endClaimLink(effectsOn(trx), link, 'expire');
  });
}

export function transferTasks(db: Knex): Record<string, Task> {
  return { [CLAIM_LINK_EXPIRY]: async (payload) => expireClaimLink(db, (payload as { transfer_id: string }).transfer_id) };
}
