// The one code path that requests a payout: POST /payouts and, at pins before 2026-08-21, POST /withdrawals.
import type { HandlerContext } from '../../generated/handler.js';
import type { CreatePayoutInput, Payout } from '../../generated/types.js';
import { ApiError, invalid, notFound } from '../../runtime/errors.js';
import { newId, randomToken } from '../../runtime/ids.js';
import { query } from '../../runtime/request-db.js';
import { addJob } from '../../runtime/jobs.js';
import { ledgerOf, postEntriesAtCommit } from '../ledger/index.js';
import { ownerOf } from './payout-owner.js';
import { arrivalsOf, offers, railOf } from './rails.js';
import { feeOf, formatAmount, parseAmount } from './payout-money.js';
import { reservation } from './payout-ledger.js';
import { payoutView, type PayoutRow } from './payout-view.js';
import { payoutRail } from './payout-rail-port.js';
import { checkKycGate } from './kyc-gate.js';

// Fixed SQL on plain pg (runtime/request-db.ts query). The method with what its owner's payouts need: the account's
// controls, whether its identity is verified (the KYC gate then has nothing to check: an approval is final) and the
// owner's ledger (null before the owner's first movement).
const METHOD_WITH_OWNER = `select to_jsonb(m) as method, a.undated_pending_reason, coalesce(la.id, lu.id) as ledger_id,
    exists (select 1 from verifications v where v.account_id = m.account_id and v.purpose = 'identity' and v.status = 'approved')
      as identity_verified
  from payout_methods m
  left join accounts a on a.id = m.account_id
  left join ledger_accounts la on la.account_id = m.account_id and la.kind = 'business'
  left join ledger_accounts lu on lu.user_id = m.user_id and lu.kind = 'personal'
  where m.id = $1`;

// The payout. Its reservation is posted with the COMMIT (postEntriesAtCommit), and its hand-over to the rail (a job)
// goes with it.
const INSERT_PAYOUT = `insert into payouts (id, account_id, user_id, ledger_id, payout_method_id, status, status_detail, speed, currency,
    amount, fee_amount, markup_fee, net_amount, destination_currency, destination_amount, exchange_rate, payout_request_id,
    estimated_arrival_at, conversion_request_id)
  values ($1, $2, $3, $4, $5, 'requested', $6, $7, $8, $9, $10, 0, $11, $12, $13, $14, $15, $16, $17)
  returning *`;

/**
 * A payout request (POST /payouts, and POST /withdrawals at older pins): checks the method (the owner's, active,
 * offering the speed, in its currency), the amount (within the rail's limits, more than the fee) and the account's
 * controls (undated pending reasons block payouts; past the KYC limit an unverified account is held, kyc-gate.ts), then writes
 * the payout, hands it to the rail (a job), records payout.created and reserves its amount, all in the request's
 * transaction. The reservation goes with the COMMIT, so that the account's balance is locked for that round trip
 * alone: one account's payouts queued on it from the payout's insert to the request's end. When the balance does not
 * cover the amount the request is refused there (400 insufficient_funds) and nothing of it is written. Answers the
 * payout's row (with its method) and its view.
 */
export async function requestPayout(ctx: HandlerContext, body: CreatePayoutInput['body']): Promise<{ row: PayoutRow; view: Payout }> {
  const owner = ownerOf(ctx, body);
  const [found] = await query(ctx.db, METHOD_WITH_OWNER, [body.payout_method_id]);
  const method = found?.method;
  const ownersMethod = method && (owner.account_id ? method.account_id === owner.account_id : method.user_id === owner.user_id);
  if (!ownersMethod) throw notFound('payout method', body.payout_method_id, 'payout_method_id');
  if (method.status !== 'active') throw invalid(`The payout method ${method.id} is ${method.status}; save it again`, 'payout_method_id');
  const rail = await railOf(ctx.db, method.supported_payout_method_id, 'payout_method_id');
  const speed = body.speed ?? 'standard';
  if (!offers(rail, speed)) throw invalid(`${rail.name} does not offer ${speed} payouts`, 'speed');
  const currency = body.currency ?? rail.currency;
  if (currency !== rail.currency) throw invalid(`${rail.name} pays out in ${rail.currency}; currency must be ${rail.currency}`, 'currency');
  const amount = parseAmount(body.amount, currency);
  const min = Number(rail.min_amount);
  const max = Number(rail.max_amount);
  if (amount < min || amount > max) {
    throw invalid(`amount must be between ${formatAmount(min, currency)} and ${formatAmount(max, currency)} ${currency} for ${rail.name}`, 'amount');
  }
  const fee = feeOf(amount, rail[`${speed}_fee_bps`], Number(rail[`${speed}_fee_fixed`]));
  if (fee >= amount) throw invalid(`amount must exceed the ${formatAmount(fee, currency)} ${currency} fee`, 'amount');
  // kyc_incomplete is refused by the gate, which says how to verify.
  if (found.undated_pending_reason && found.undated_pending_reason !== 'kyc_incomplete') {
    throw new ApiError(400, 'invalid_state', `Payouts from ${owner.account_id} are blocked: ${found.undated_pending_reason.replaceAll('_', ' ')}`,
      'payment_controls.undated_pending_reason');
  }
  if (owner.account_id) {
    await checkKycGate(ctx.db, owner.account_id, amount, currency,
      { held: found.undated_pending_reason === 'kyc_incomplete', verified: found.identity_verified });
  }
  const id = newId('wdrl_');
  const ledgerId: string = found.ledger_id ?? await ledgerOf(ctx.db, owner.side);
  const handOver = payoutRail().handOver(id);
  const [row] = await query<Omit<PayoutRow, '$method'>>(ctx.db, INSERT_PAYOUT, [
    id, owner.account_id, owner.user_id, ledgerId, method.id,
    'Requested; the amount is reserved.', speed, currency, amount, fee, amount - fee, rail.currency, amount - fee, '1',
    rail.delivery_type === 'crypto' ? `poreq_${randomToken(16)}` : null, arrivalsOf(rail)[speed],
    rail.delivery_type === 'crypto' && body.conversion_request ? newId('cofr_') : null,
  ]);
  await postEntriesAtCommit(ctx.db, [reservation(id, ledgerId, currency, amount)], 'amount');
  await addJob(ctx.db, handOver.task, handOver.payload, handOver.options);
  // The row itself takes the method: a spread copy with it added would get new hidden classes on every request.
  const withMethod: PayoutRow = Object.assign(row, { $method: method });
  const view = await payoutView(ctx.db, withMethod);
  await ctx.emit('payout.created', owner.account_id, view);
  return { row: withMethod, view };
}
