// A renewal charge: renewal_price, off-session, on the buyer's renewal card (renewal-card.ts), through the same write
// and collection as POST /payments (handlers/payments/charge.ts): processor, 3-D Secure rules (a card that needs the
// buyer fails), fees, tax by the purchase's country, ledger, events. The payment names its membership and the period
// it pays from creation; a unique index keeps it to one per membership and period.
import type { Knex } from 'knex';
import { ApiError } from '../../runtime/errors.js';
import { query } from '../../runtime/request-db.js';
import type { MembershipRow } from '../../generated/rows.js';
import type { Payment } from '../../generated/types.js';
import { insertCharge, savedMethodSource, priceOf } from '../payments/index.js';
import { renewalCardOf } from './renewal-card.js';

const TAX_COUNTRY = `select tax_country from payments where membership_id = $1 and tax_country is not null
  order by created_at desc limit 1`;

/** Charges the period starting at the membership's current_period_end; null when it cannot be charged (no card on
 * file, or the variant can no longer be priced): the caller counts that as a failed attempt. */
export async function chargeRenewal(db: Knex, membership: MembershipRow): Promise<Payment | null> {
  const cardId = await renewalCardOf(db, membership);
  if (!cardId) return null;
  const [taxed] = await query<{ tax_country: string }>(db, TAX_COUNTRY, [membership.id]);
  try {
    const source = await savedMethodSource(db, membership.account_id, membership.member_id, cardId, membership.plan_id, false);
    const price = await priceOf(db, { account_id: membership.account_id, plan_id: membership.plan_id, country: taxed?.tax_country, renewal: true },
      source.buyerUserId, source.variant);
    return await insertCharge(db, {
      accountId: membership.account_id, source, price: { ...price, billingReason: 'subscription_cycle' }, capture: true, offSession: true,
      saveMethod: false, promoParam: 'promo_code_id', taxCountry: taxed?.tax_country ?? null,
      renewal: { membershipId: membership.id, periodStart: new Date(membership.current_period_end!).toISOString() },
    });
  } catch (e) {
    if (e instanceof ApiError && e.status < 500 && e.status !== 409) return null;
    throw e;
  }
}
