// Where the money comes from: a confirmation token (spent here, buyer present) or a member's saved method.
import type { Knex } from 'knex';
import { invalid, notFound } from '../../runtime/errors.js';
import type { HandlerContext } from '../../generated/handler.js';
import { query } from '../../runtime/request-db.js';
import type { CardBehaviour } from '../shared/card-processor-port.js';
import { isWallet, walletRefusal } from '../payment_method_domains/index.js';
import { variantPriceSql, type VariantPriceRow } from './pricing.js';

const MEMBER_WITH_METHOD = `select m.id, m.user_id, u.username, u.name, u.profile_picture_url, pm.id as method_id, pm.card_brand, pm.last4,
    pm.exp_month, pm.exp_year, pm.test_behaviour
  from members m join users u on u.id = m.user_id
  left join payment_methods pm on pm.member_id = m.id and pm.account_id = m.account_id and pm.id = $3
  where m.id = $1 and m.account_id = $2`;

// A saved-method charge of a variant ($4; null for an explicit amount): the member, its buyer and card, and the
// variant's price for that buyer, in one round trip (the price depends on the buyer: a renewal when they hold it).
export const MEMBER_AND_VARIANT = `with member as (${MEMBER_WITH_METHOD})
  select member.*, (select to_jsonb(v) from (${variantPriceSql('$4', '$2', 'member.user_id')}) v) as "$variant"
  from member`;

// One statement spends a confirmation token: locks it, reads the buyer, and marks it used only when every rule holds
// (the account's, unused, unexpired, a buyer that exists); the rows say which rule failed otherwise. A concurrent
// spender waits on the lock and then sees the token used.
const SPEND_TOKEN = `with token as (select * from confirmation_tokens where id = $1 for update),
    buyer as (select id, username, name, profile_picture_url from users where id = $2),
    spent as (update confirmation_tokens c set used_at = date_trunc('milliseconds', now()) from token
      where c.id = token.id and token.account_id = $3 and token.used_at is null and token.expires_at > now()
        and exists (select 1 from buyer)
      returning c.id)
  select token.*, token.expires_at <= now() as expired,
    (select d.status from payment_method_domains d where d.account_id = token.account_id and d.domain = token.wallet_domain) as wallet_domain_status,
    buyer.id as "buyer.id", buyer.username as "buyer.username",
    buyer.name as "buyer.name", buyer.profile_picture_url as "buyer.profile_picture_url"
  from token left join buyer on true`;

export interface PaymentSource {
  confirmationTokenId: string | null;
  paymentMethodId: string | null;
  memberId: string | null;
  buyerUserId: string;
  instrument: { brand: string | null; last4: string; exp_month: number; exp_year: number };
  /** card, or the wallet the card came from (a confirmation token's payment_method_type) */
  method: 'card' | 'apple_pay' | 'google_pay';
  /** the wallet authenticated the buyer on their device, so no 3-D Secure step is added */
  walletAuthenticated: boolean;
  behaviour: CardBehaviour;
  buyerPresent: boolean;
  /** the buyer's public summary, for the payment's `user` */
  buyer: { username: string; name: string | null; profile_picture_url: string | null };
  /** the plan_id's price row, when it was read with the source (pricing.ts priceOf takes it) */
  variant?: VariantPriceRow;
}

interface SourceInput {
  account_id: string;
  plan_id?: string;
  confirmation_token?: string;
  user_id?: string;
  member_id?: string;
  payment_method_id?: string;
  return_url?: string;
  off_session?: boolean;
  save_payment_method?: boolean;
}

const instrumentOf = (row: Record<string, any>) =>
  ({ brand: row.card_brand, last4: row.last4, exp_month: row.exp_month, exp_year: row.exp_year });

/** `ctx`: the request's (POST /payments), or the hosted checkout page's (handlers/checkout), which has no credential. */
export async function resolveSource(ctx: Pick<HandlerContext, 'db' | 'flag'>, body: SourceInput): Promise<PaymentSource> {
  if (body.save_payment_method && !body.confirmation_token) {
    throw invalid('save_payment_method saves the card of a confirmation token; a saved-method charge has nothing new to save', 'save_payment_method');
  }
  if (body.confirmation_token) {
    if (body.member_id || body.payment_method_id) {
      throw invalid('Pass either confirmation_token or member_id with payment_method_id, not both', body.member_id ? 'member_id' : 'payment_method_id');
    }
    return fromToken(ctx.db, body.account_id, body.confirmation_token, body.user_id);
  }
  if (!body.member_id) throw invalid('Pass confirmation_token, or member_id with payment_method_id', 'member_id');
  if (!body.payment_method_id) throw invalid('A saved-method charge needs payment_method_id with member_id', 'payment_method_id');
  if (body.user_id) throw invalid("user_id names the buyer of a confirmation token; a saved method's buyer is its member", 'user_id');
  // Changelog entry 7: from 2026-09-02 a saved-method charge with return_url has the buyer present unless off_session.
  const buyerPresent = ctx.flag('saved_method_charge_buyer_present') && !!body.return_url && body.off_session !== true;
  return savedMethodSource(ctx.db, body.account_id, body.member_id, body.payment_method_id, body.plan_id, buyerPresent);
}

/** A member's saved method, with the variant's price for its buyer when `planId` is given; 404s name the fields of
 * POST /payments. The membership lifecycle charges renewals through it with the buyer absent. */
export async function savedMethodSource(db: Knex, accountId: string, memberId: string, methodId: string,
  planId: string | undefined, buyerPresent: boolean): Promise<PaymentSource> {
  // One round trip: the member, its buyer, (if it is theirs) the card and the variant's price. Fixed SQL on plain pg:
  // the hot path of every saved-method charge (runtime/request-db.ts query).
  const [member] = await query<Record<string, any>>(db, MEMBER_AND_VARIANT, [memberId, accountId, methodId, planId ?? null]);
  if (!member) throw notFound('member', memberId, 'member_id');
  if (!member.method_id || !member.last4) throw notFound('payment method of this member', methodId, 'payment_method_id');
  return {
    confirmationTokenId: null,
    paymentMethodId: member.method_id,
    memberId: member.id,
    buyerUserId: member.user_id,
    instrument: instrumentOf(member),
    method: 'card',
    walletAuthenticated: false,
    behaviour: (member.test_behaviour ?? 'succeeds') as CardBehaviour,
    buyerPresent,
    buyer: { username: member.username, name: member.name, profile_picture_url: member.profile_picture_url },
    variant: planId ? member.$variant : undefined,
  };
}

async function fromToken(db: Knex, accountId: string, tokenId: string, userId?: string): Promise<PaymentSource> {
  const [token] = await query(db, SPEND_TOKEN, [tokenId, userId ?? null, accountId]);
  if (!token || token.account_id !== accountId) throw notFound('confirmation token', tokenId, 'confirmation_token');
  if (token.used_at) throw invalid('This confirmation token has already been used; collect the card again for a new one', 'confirmation_token');
  if (token.expired) throw invalid('This confirmation token has expired; collect the card again for a new one', 'confirmation_token');
  if (!userId) throw invalid('A confirmation token payment needs user_id, the buyer', 'user_id');
  if (!token['buyer.id']) throw notFound('user', userId, 'user_id');
  // The domain may have been deleted since the token was made: a wallet is charged only on a verified one (the
  // refusal rolls the request back, so the token stays unspent).
  const wallet = isWallet(token.payment_method_type);
  const refusal = wallet ? walletRefusal(token.payment_method_type, token.wallet_domain, token.wallet_domain_status) : null;
  if (refusal) throw invalid(refusal, 'confirmation_token');
  const user = { id: token['buyer.id'], username: token['buyer.username'], name: token['buyer.name'], profile_picture_url: token['buyer.profile_picture_url'] };
  return {
    confirmationTokenId: token.id,
    paymentMethodId: null,
    memberId: null,
    buyerUserId: user.id,
    instrument: instrumentOf(token),
    method: token.payment_method_type,
    walletAuthenticated: wallet,
    behaviour: token.test_behaviour as CardBehaviour,
    buyerPresent: true,
    buyer: { username: user.username, name: user.name, profile_picture_url: user.profile_picture_url },
  };
}
