// What a setup intent saves and for whom: exactly one of a confirmation token or a saved method of the account,
// and the buyer named by member_id or user_id (or the saved method's own member).
import type { Knex } from 'knex';
import { invalid, notFound } from '../../runtime/errors.js';
import type { Operations } from '../../generated/types.js';
import { ensureMember } from '../members/index.js';
import { nowMs } from '../shared/now.js';
import { clockNow } from '../../runtime/clock.js';

type Body = Operations['createSetupIntent']['input']['body'];

export interface SetupSource {
  confirmationTokenId: string | null;
  paymentMethodId: string | null;
  instrument: { brand: string | null; last4: string; exp_month: number; exp_year: number } | null;
  memberId: string | null;
  userId: string | null;
}

const instrumentOf = (r: Record<string, any>) =>
  (r.last4 ? { brand: r.card_brand, last4: r.last4, exp_month: r.exp_month, exp_year: r.exp_year } : null);

async function tokenSource(db: Knex, accountId: string, tokenId: string) {
  // Locked: a token is single-use, so two setups racing for it must not both take it.
  const token = await db('confirmation_tokens').where({ id: tokenId, account_id: accountId }).forUpdate().first();
  if (!token) throw notFound('confirmation token', tokenId, 'confirmation_token');
  if (token.used_at) throw invalid('This confirmation token has already been used; collect the payment details again', 'confirmation_token');
  if (Date.parse(token.expires_at) <= clockNow().getTime()) throw invalid('This confirmation token has expired; collect the payment details again', 'confirmation_token');
  await db('confirmation_tokens').where({ id: token.id }).update({ used_at: nowMs(db) });
  return { instrument: instrumentOf(token), memberId: null, userId: null };
}

async function methodSource(db: Knex, accountId: string, methodId: string) {
  const method = await db('payment_methods').where({ id: methodId, account_id: accountId }).first();
  if (!method) throw notFound('payment method', methodId, 'payment_method_id');
  return { instrument: instrumentOf(method), memberId: method.member_id as string | null, userId: method.user_id as string | null };
}

async function buyer(db: Knex, body: Body, fallback: { memberId: string | null; userId: string | null }) {
  if (body.member_id) {
    const member = await db('members').where({ id: body.member_id, account_id: body.account_id }).first('id', 'user_id');
    if (!member) throw notFound('member', body.member_id, 'member_id');
    return { memberId: member.id as string, userId: member.user_id as string };
  }
  if (body.user_id) {
    const user = await db('users').where({ id: body.user_id }).first('id');
    if (!user) throw notFound('user', body.user_id, 'user_id');
    return { memberId: (await ensureMember(db, body.account_id, user.id)).id, userId: user.id as string };
  }
  return fallback;
}

export async function setupSource(db: Knex, body: Body): Promise<SetupSource> {
  if ((body.confirmation_token === undefined) === (body.payment_method_id === undefined)) {
    throw invalid('Pass exactly one of confirmation_token and payment_method_id', 'confirmation_token');
  }
  if (body.member_id && body.user_id) throw invalid('Pass at most one of member_id and user_id', 'user_id');
  if (body.checkout_configuration_id) {
    const config = await db('checkout_configurations')
      .where({ id: body.checkout_configuration_id, account_id: body.account_id }).whereNull('deleted_at').first('id');
    if (!config) throw notFound('checkout configuration', body.checkout_configuration_id, 'checkout_configuration_id');
  }
  const source = body.confirmation_token
    ? await tokenSource(db, body.account_id, body.confirmation_token)
    : await methodSource(db, body.account_id, body.payment_method_id!);
  const who = await buyer(db, body, source);
  return {
    confirmationTokenId: body.confirmation_token ?? null,
    paymentMethodId: body.payment_method_id ?? null,
    instrument: source.instrument,
    ...who,
  };
}
