// What a payment holds while it may still succeed: one redemption of its promo code and one unit of its variant's
// stock (when the variant has a stock; payments.stock_held). Both are taken when the payment is created (and again
// by retry), atomically, so concurrent buyers never exceed max_redemptions or take more stock than there is; both
// are given back when the payment ends failed or canceled, by endPayment, the only way a payment gets there.
import type { Knex } from 'knex';
import { invalid } from '../../runtime/errors.js';
import { query } from '../../runtime/request-db.js';
import { transition } from '../../generated/state-machine.js';
import type { PaymentRow } from './payment-view.js';

// Fixed SQL on plain pg (runtime/request-db.ts query): take runs on POST /payments, only when there is something to take.
const TAKE_REDEMPTION = `update promo_codes set redemptions = redemptions + 1
  where id = $1 and (max_redemptions is null or redemptions < max_redemptions) returning redemptions`;
// A variant made unlimited since (stock null) has a unit for everyone: null - 1 stays null.
const TAKE_STOCK = 'update plans set stock = stock - 1 where id = $1 and (stock is null or stock > 0) returning stock';
const GIVE_BACK_REDEMPTION = 'update promo_codes set redemptions = redemptions - 1 where id = $1 and redemptions > 0';
const GIVE_BACK_STOCK = 'update plans set stock = stock + 1 where id = $1 and stock is not null';

export interface Holds {
  promoCodeId: string | null;
  planId: string | null;
  /** whether the payment takes a unit of the variant's stock */
  stock: boolean;
}

/** Takes the holds, or refuses the payment with a 400 naming what ran out: plan_id, or `promoParam` (the field that
 * named the code). */
export async function takeHolds(db: Knex, holds: Holds, promoParam = 'promo_code_id'): Promise<void> {
  if (holds.promoCodeId) {
    const taken = await query(db, TAKE_REDEMPTION, [holds.promoCodeId]);
    if (taken.length === 0) throw invalid('This promo code has reached its redemption limit', promoParam);
  }
  if (holds.stock && holds.planId) {
    const taken = await query(db, TAKE_STOCK, [holds.planId]);
    if (taken.length === 0) throw invalid('This variant is sold out (its stock is 0)', 'plan_id');
  }
}

/** The holds a payment row recorded when it was created. */
export const holdsOf = (payment: PaymentRow): Holds =>
  ({ promoCodeId: payment.promo_code_id ?? null, planId: payment.plan_id ?? null, stock: !!payment.stock_held });

/** Gives back what the payment held: its promo code's redemption and its stock unit. */
async function giveBackHolds(db: Knex, payment: PaymentRow): Promise<void> {
  const holds = holdsOf(payment);
  if (holds.promoCodeId) await query(db, GIVE_BACK_REDEMPTION, [holds.promoCodeId]);
  if (holds.stock && holds.planId) await query(db, GIVE_BACK_STOCK, [holds.planId]);
}

/**
 * Ends a payment: moves it failed (fail, fail_action) or canceled (void) through the state machine with `change`
 * written alongside, and gives back its holds. Every failure and cancelation goes through here, so a hold is given
 * back exactly once per time it was taken (only retry leaves failed, and it takes the holds again).
 */
export async function endPayment(db: Knex, payment: PaymentRow, action: 'fail' | 'fail_action' | 'void',
  change: Record<string, unknown>): Promise<void> {
  const status = transition('Payment', payment.status, action);
  await db('payments').where({ id: payment.id }).update({ ...change, status });
  await giveBackHolds(db, payment);
}
