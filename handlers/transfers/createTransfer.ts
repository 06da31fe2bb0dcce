// Written by hand, not declared plain: money: a balance transfer or a claim link, with ledger holds and jobs.
import type { Handler } from '../../generated/handler.js';
import type { Transfer } from '../../generated/types.js';
import { conflict, notFound } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { claimCodeHash, trackingTokenHash } from './transfer-secrets.js';
import { CLAIM_LINK_EXPIRY, inviteNotification } from './claim-links.js';
import { balanceOf, postEntry } from './transfer-ledger.js';
import { checkShape, claimLinkExpiry, totalDebit, transferFee } from './transfer-rules.js';
import { isWallet, sideAccess } from './transfer-access.js';
import { loadTransferView, type TransferTableRow } from './transfer-view.js';
import { emitToSides } from './transfer-events.js';

const MOVE = 'payout:transfer_funds';

/**
 * POST /transfers: a balance transfer (completed at once) or a claim link (its shares held until claimed, expired or
 * canceled). The origin's balance covers it or nothing is written (the ledger's floor, in the same transaction).
 */
export const createTransfer: Handler<'createTransfer'> = async ({ body }, ctx) => {
  checkShape(body);
  const origin = await sideAccess(ctx.access, body.origin_id, MOVE);
  if (origin === 'invisible') throw notFound(isWallet(body.origin_id) ? 'wallet' : 'account', body.origin_id, 'origin_id');
  if (origin === 'forbidden') await ctx.access.require(body.origin_id, [MOVE], 'origin_id');
  if (body.destination_id !== undefined) await requireExists(ctx.db, body.destination_id);

  const link = body.type === 'claim_link';
  const shares = link ? body.redeemable_count ?? 1 : 1;
  const fee = transferFee(body.amount);
  const id = newId('xfer_');
  const row = {
    id,
    type: body.type,
    status: link ? 'pending' : 'completed',
    origin_id: body.origin_id,
    origin_ledger_id: await balanceOf(ctx.db, body.origin_id, body.currency),
    destination_id: body.destination_id ?? null,
    destination_ledger_id: link ? null : await balanceOf(ctx.db, body.destination_id!, body.currency),
    currency: body.currency,
    amount: body.amount,
    fee,
    redeemable_count: link ? shares : null,
    claimed_count: link ? 0 : null,
    claim_code: link ? claimCodeHash(id) : null,
    expires_at: link ? claimLinkExpiry(body.expires_at).toISOString() : null,
    notes: body.notes ?? null,
    metadata: JSON.stringify(body.metadata ?? {}),
    idempotence_key: body.idempotence_key ?? null,
    tracking_token: trackingTokenHash(id),
  };
  // The row first: a second request with the same idempotence_key stops here, before any money moves.
  const [inserted] = await ctx.db('transfers').insert(row).onConflict(ctx.db.raw('(origin_id, idempotence_key) where idempotence_key is not null'))
    .ignore().returning('id');
  if (!inserted) return sameRequestAgain(ctx.db, row);

  const total = totalDebit(body.amount, shares);
  await postEntry(ctx.db, id, body.currency, link
    ? [{ side: body.origin_id, bucket: 'available', amount: -total }, { side: body.origin_id, bucket: 'held', amount: total }]
    : [
      { side: body.origin_id, bucket: 'available', amount: -total },
      { side: body.destination_id!, bucket: 'available', amount: body.amount },
      { side: 'platform', bucket: 'fees', amount: fee },
    ]);
  const view = await loadTransferView(ctx.db, id);
  if (link) {
    await ctx.addJob(CLAIM_LINK_EXPIRY, { transfer_id: id }, { jobKey: `${CLAIM_LINK_EXPIRY}:${id}`, runAt: new Date(row.expires_at!) });
    if (body.destination_id !== undefined) await inviteNotification(ctx.db, view);
  }
  await emitToSides(ctx, 'transfer.created', view);
  return view;
};

async function requireExists(db: Parameters<Handler<'createTransfer'>>[1]['db'], id: string): Promise<void> {
  const found = await db(isWallet(id) ? 'users' : 'accounts').where({ id }).first('id');
  if (!found) throw notFound(isWallet(id) ? 'user' : 'account', id, 'destination_id');
}

/** The transfer an earlier request with this origin and idempotence_key made, when this one asks the same. */
const ASKED = ['type', 'destination_id', 'currency', 'amount', 'redeemable_count', 'notes'] as const;

async function sameRequestAgain(db: Parameters<Handler<'createTransfer'>>[1]['db'],
  row: Record<(typeof ASKED)[number] | 'origin_id' | 'idempotence_key', unknown>): Promise<Transfer> {
  const first: TransferTableRow = await db('transfers').where({ origin_id: row.origin_id, idempotence_key: row.idempotence_key }).first();
  const same = ASKED.every((k) => String(first[k] ?? null) === String(row[k] ?? null));
  if (!same) throw conflict(`idempotence_key '${row.idempotence_key}' was used for another transfer from ${row.origin_id} (${first.id})`, 'idempotence_key');
  return loadTransferView(db, first.id);
}
