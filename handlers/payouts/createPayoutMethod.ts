// Written by hand, not declared plain: an account's or a user's destination, and the owner's default moves to it.
import type { Handler } from '../../generated/handler.js';
import { conflict, invalid } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { serializeRule } from '../../runtime/serialize.js';
import { ownerOf } from './payout-owner.js';
import { railOf } from './rails.js';
import { nowMs } from '../shared/now.js';
import { payoutMethodView } from './payout-method-view.js';

const UNIQUE_VIOLATION = '23505';

/**
 * POST /payouts/methods: saves a destination on a rail for an account or the caller's own user. The first method an
 * owner saves becomes its default, as does one saved with is_default (the previous default stops being one); a
 * bill-pay recipient is never the default. A nickname names one destination per owner and rail (409).
 */
export const createPayoutMethod: Handler<'createPayoutMethod'> = async ({ body }, ctx) => {
  const owner = ownerOf(ctx, body);
  const rail = await railOf(ctx.db, body.supported_payout_method_id);
  if (body.destination_currency && body.destination_currency !== rail.currency) {
    throw invalid(`${rail.name} delivers ${rail.currency}; destination_currency must be ${rail.currency}`, 'destination_currency');
  }
  const billPay = rail.delivery_type === 'bill_pay';
  if (billPay !== (body.recipient !== undefined)) {
    throw invalid(billPay ? 'A bill-pay method needs recipient (first_name, last_name, country)' : 'recipient is only for bill-pay methods (podst_bill_pay)', 'recipient');
  }
  if (rail.id === 'podst_us_ach' && !body.fields.routing_number) throw invalid('A US bank account needs fields.routing_number', 'fields.routing_number');
  if (billPay && body.is_default) throw invalid('A bill-pay recipient cannot be the default payout method', 'is_default');
  const ownerColumn = owner.account_id ? { account_id: owner.account_id } : { user_id: owner.user_id };
  // One save per owner at a time: two concurrent first saves would each find no default and both take it.
  await serializeRule(ctx.db, 'payout_methods.default', owner.side);
  const existing = await ctx.db('payout_methods').where(ownerColumn).where({ is_default: true }).first('id');
  const makeDefault = !billPay && (body.is_default === true || !existing);
  if (makeDefault && existing) await ctx.db('payout_methods').where({ id: existing.id }).update({ is_default: false, updated_at: nowMs(ctx.db) });
  try {
    const [row] = await ctx.db('payout_methods').insert({
      id: newId('potk_'), ...ownerColumn, supported_payout_method_id: rail.id, nickname: body.nickname, is_default: makeDefault,
      destination_currency: rail.currency, destination_number: body.fields.account_number, routing_number: body.fields.routing_number ?? null,
      institution_name: body.fields.institution_name ?? rail.institution_name ?? null, status: 'active',
      recipient_first_name: body.recipient?.first_name ?? null, recipient_last_name: body.recipient?.last_name ?? null,
      recipient_country: body.recipient?.country ?? null,
    }).returning('*');
    return payoutMethodView(row, rail);
  } catch (e) {
    const err = e as { code?: string; constraint?: string };
    if (err.code === UNIQUE_VIOLATION && err.constraint === 'payout_methods_nickname') {
      throw conflict(`A payout method nicknamed '${body.nickname}' already exists on ${rail.name}`, 'nickname');
    }
    throw e;
  }
};
