// Written by hand, not declared plain: card details from a frontend's client id become a single-use token.
import { clockNow } from '../../runtime/clock.js';
import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { cardProcessor } from '../shared/card-processor-port.js';
import { registrableHostname, isWallet, requireWalletDomain } from '../payment_method_domains/index.js';

const TOKEN_LIFETIME_MS = 60 * 60 * 1000;

/** POST /confirmation_tokens: card details from a frontend (client id) become a single-use token of its account. */
export const createConfirmationToken: Handler<'createConfirmationToken'> = async ({ body }, ctx) => {
  const { number, exp_month, exp_year } = body.card;
  const processor = cardProcessor();
  if (!processor.luhnValid(number)) throw invalid('The card number is not valid (it fails the Luhn check)', 'card.number');
  const method = body.payment_method_type;
  let domain: string | null = null;
  if (isWallet(method)) {
    if (body.domain === undefined) throw invalid(`A ${method} token needs domain, the hostname the checkout is served from`, 'domain');
    domain = registrableHostname(body.domain);
    await requireWalletDomain(ctx.db, ctx.principal.accountId!, method, domain, 'domain');
  }
  const now = clockNow();
  if (exp_year < now.getUTCFullYear()) throw invalid('The card has expired', 'card.exp_year');
  if (exp_year === now.getUTCFullYear() && exp_month < now.getUTCMonth() + 1) throw invalid('The card has expired', 'card.exp_month');
  const row = {
    id: newId('ctok_'),
    account_id: ctx.principal.accountId!,
    card_brand: processor.cardBrand(number),
    last4: number.slice(-4),
    exp_month,
    exp_year,
    fingerprint: processor.cardFingerprint(number),
    test_behaviour: processor.cardBehaviour(number),
    payment_method_type: method,
    wallet_domain: domain,
    expires_at: new Date(now.getTime() + TOKEN_LIFETIME_MS).toISOString(),
  };
  await ctx.db('confirmation_tokens').insert(row);
  return {
    id: row.id,
    card: { brand: row.card_brand, last4: row.last4, exp_month, exp_year },
    payment_method_type: method,
    domain,
    expires_at: row.expires_at,
  };
};
