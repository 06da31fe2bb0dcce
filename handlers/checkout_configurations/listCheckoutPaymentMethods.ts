// Written by hand, not declared plain: not a list of rows but what a checkout page may offer on one hostname,
// computed from the domain's verification.
import type { Handler } from '../../generated/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { registrableHostname, CHECKOUT_METHODS, domainStatus, walletRefusal } from '../payment_method_domains/index.js';

/** GET /checkout_configurations/{id}/payment_methods: what the checkout page may offer on the hostname it is served
 * from (handlers/payment_method_domains/wallets.ts): cards everywhere, wallets on a verified domain only. */
export const listCheckoutPaymentMethods: Handler<'listCheckoutPaymentMethods'> = async ({ path, query }, ctx) => {
  const config = await loadOwned(ctx, resources.CheckoutConfiguration, path.id, []);
  const domain = registrableHostname(query.domain);
  const refusal = walletRefusal('wallets', domain, await domainStatus(ctx.db, config.account_id, domain));
  return {
    object: 'checkout_payment_methods',
    checkout_configuration_id: config.id,
    domain,
    payment_method_types: refusal ? ['card'] : [...CHECKOUT_METHODS],
    wallets_unavailable_reason: refusal,
  };
};
