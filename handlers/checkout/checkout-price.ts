// The price the checkout page shows and charges: the API's own pricing (handlers/payments/pricing.ts priceOf), with
// the promo code the buyer typed and the country they are taxed by, so what the page says is what POST /payments
// would charge. A bad promo code or country is the API's 4xx, which the page shows.
import type { Knex } from 'knex';
import { ApiError, invalid } from '../../runtime/errors.js';
import { money } from '../../runtime/money.js';
import { formatMoney } from '../shared/money.js';
import { priceOf, type Price } from '../payments/index.js';
import type { CheckoutTarget } from './checkout-target.js';

/** What the buyer chose on the page: both optional; country as ISO 3166-1 alpha-2. */
export interface BuyerChoices { promo_code?: string; country?: string }

/** The buyer's choices from a form or query, cleaned: empty means absent, the country upper-cased. */
export function choicesOf(read: (name: string) => string | null | undefined): BuyerChoices {
  const promo = read('promo_code')?.trim();
  const country = read('country')?.trim().toUpperCase();
  return { ...(promo ? { promo_code: promo } : {}), ...(country ? { country } : {}) };
}

/** The same shape checks POST /payments makes on promo_code and country (spec/areas/payments.yaml). */
export function checkChoices(choices: BuyerChoices): void {
  if (choices.promo_code !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(choices.promo_code)) {
    throw invalid('A promo code is 1 to 64 letters, digits, _ or -', 'promo_code');
  }
  if (choices.country !== undefined && !/^[A-Z]{2}$/.test(choices.country)) {
    throw invalid('The country is a two-letter ISO 3166-1 code, e.g. US or DE', 'country');
  }
}

/** The price of the target's variant for `buyerUserId` ('' before the buyer is known: a first purchase). */
export async function checkoutPrice(db: Knex, target: CheckoutTarget, choices: BuyerChoices, buyerUserId = ''): Promise<Price> {
  checkChoices(choices);
  const price = await priceOf(db, { account_id: target.account.id, plan_id: target.variant!.id, ...choices }, buyerUserId);
  // A configuration's own 3-D Secure policy comes before the variant's (spec/areas/checkout_configurations.yaml).
  const policy = target.configuration?.three_d_secure_policy;
  return policy ? { ...price, threeDSecurePolicy: policy as Price['threeDSecurePolicy'] } : price;
}

/** A price as the page shows it, or the API error that refused it. */
export type Quote = { price: Price; error: null } | { price: null; error: ApiError };

export async function quote(db: Knex, target: CheckoutTarget, choices: BuyerChoices): Promise<Quote> {
  try {
    return { price: await checkoutPrice(db, target, choices), error: null };
  } catch (e) {
    if (e instanceof ApiError) return { price: null, error: e };
    throw e;
  }
}

export const shown = (amount: number, currency: string) => formatMoney(money(amount, currency));
