import type { Handler } from '../../runtime/handler.js';
import { ApiError, invalid, notFound } from '../../runtime/errors.js';
import { newId, randomToken } from '../../runtime/ids.js';
import { ledgerOf } from '../ledger/ledgers.js';
import { ownerOf } from './payout-owner.js';
import { arrivalsOf, offers, railOf } from './rails.js';
import { feeOf, formatAmount, parseAmount } from './payout-money.js';
import { reservePayout } from './payout-ledger.js';
import { payoutView } from './payout-view.js';
import { queueStep } from '../payout_rail/rail.js';

/**
 * POST /payouts: checks the method (the owner's, active, offering the speed, in its currency), the amount (within
 * the rail's limits, more than the fee) and the account's controls (undated pending reasons block payouts), then
 * writes the payout, reserves its amount (400 insufficient_funds when the balance does not cover it: nothing is
 * written) and hands it to the rail, all in the request's transaction.
 */
export const createPayout: Handler<'createPayout'> = async ({ body }, ctx) => {
  const owner = ownerOf(ctx, body);
  const method = await ctx.db('payout_methods').where({ id: body.payout_method_id }).first();
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
  if (owner.account_id) {
    const account = await ctx.db('accounts').where({ id: owner.account_id }).first('undated_pending_reason');
    if (account?.undated_pending_reason) {
      throw new ApiError(400, 'invalid_state', `Payouts from ${owner.account_id} are blocked: ${account.undated_pending_reason.replaceAll('_', ' ')}`,
        'payment_controls.undated_pending_reason');
    }
  }
  const id = newId('wdrl_');
  const [row] = await ctx.db('payouts').insert({
    id, account_id: owner.account_id, user_id: owner.user_id, ledger_id: await ledgerOf(ctx.db, owner.side),
    payout_method_id: method.id, status: 'requested', status_detail: 'Requested; the amount is reserved.', speed, currency,
    amount, fee_amount: fee, markup_fee: 0, net_amount: amount - fee, destination_currency: rail.currency, destination_amount: amount - fee,
    exchange_rate: '1', payout_request_id: rail.delivery_type === 'crypto' ? `poreq_${randomToken(16)}` : null,
    estimated_arrival_at: arrivalsOf(rail)[speed],
  }).returning('*');
  await reservePayout(ctx.db, row);
  const view = await payoutView(ctx.db, { ...row, $method: method });
  await ctx.emit('payout.created', owner.account_id, view);
  await queueStep(ctx.db, id);
  return view;
};
