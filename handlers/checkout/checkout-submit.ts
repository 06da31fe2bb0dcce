// The card form's POST: the buyer (by e-mail), the confirmation token their browser made, and the promo code and
// country the page was priced with. It runs what POST /payments runs (payment-source.ts resolveSource, pricing.ts
// priceOf, charge.ts insertCharge), or in setup mode what POST /setup_intents runs (startSetupIntent), in one
// transaction: a refusal rolls everything back (the token stays unspent, no user is made) and the page shows why.
import type { Knex } from 'knex';
import { invalid } from '../../runtime/errors.js';
import { inTransaction } from '../../runtime/request-db.js';
import { resolveSource, insertCharge } from '../payments/index.js';
import { startSetupIntent } from '../setup_intents/index.js';
import { buyerFor, checkEmail } from './checkout-buyer.js';
import { CheckoutContext } from './checkout-context.js';
import { checkoutPrice, choicesOf, type BuyerChoices } from './checkout-price.js';
import type { CheckoutTarget } from './checkout-target.js';
import { resultUrl } from './checkout-result.js';

export interface Posted { email: string; confirmation_token: string; choices: BuyerChoices }

export function readPosted(form: URLSearchParams): Posted {
  return { email: form.get('email') ?? '', confirmation_token: form.get('confirmation_token') ?? '', choices: choicesOf((n) => form.get(n)) };
}

/** What the purchase made: a payment, or in setup mode a setup intent. */
export interface Purchased { param: 'payment_id' | 'setup_intent_id'; id: string }

export async function purchase(db: Knex, target: CheckoutTarget, posted: Posted): Promise<Purchased> {
  const email = checkEmail(posted.email);
  const token = posted.confirmation_token;
  if (!/^ctok_[A-Za-z0-9]{1,60}$/.test(token)) {
    throw invalid('The card was not turned into a confirmation token (the page needs JavaScript); enter it again', 'confirmation_token');
  }
  const returnUrl = resultUrl();
  return inTransaction(db, async (trx) => {
    const fx = new CheckoutContext(trx);
    const buyer = await buyerFor(trx, email);
    if (target.mode === 'setup') {
      const id = await startSetupIntent(fx, {
        account_id: target.account.id, confirmation_token: token, user_id: buyer, return_url: returnUrl,
        checkout_configuration_id: target.configuration!.id,
      });
      return { param: 'setup_intent_id', id };
    }
    const { choices } = posted;
    const body = { account_id: target.account.id, plan_id: target.variant!.id, confirmation_token: token, user_id: buyer, return_url: returnUrl, ...choices };
    const source = await resolveSource(fx, body);
    const price = await checkoutPrice(trx, target, choices, source.buyerUserId);
    const payment = await insertCharge(trx, {
      accountId: target.account.id, source, price, capture: true, returnUrl, saveMethod: false, promoParam: 'promo_code',
      taxCountry: choices.country ?? null,
    });
    // Which checkout sold it (the older pins' GET /payments filter checkout_configuration_ids reads it); a variant's own link has none.
    if (target.configuration) await trx('payments').where({ id: payment.id }).update({ checkout_configuration_id: target.configuration.id });
    return { param: 'payment_id', id: payment.id };
  });
}
