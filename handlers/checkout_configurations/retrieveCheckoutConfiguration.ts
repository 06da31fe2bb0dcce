import type { Handler } from '../../runtime/handler.js';
import { loadOwned } from '../products/catalogue-access.js';
import { checkoutConfigurationView } from './checkout-configuration-view.js';

/** GET /checkout_configurations/{id} */
export const retrieveCheckoutConfiguration: Handler<'retrieveCheckoutConfiguration'> = async ({ path }, ctx) =>
  checkoutConfigurationView(await loadOwned(ctx, 'checkout_configurations', 'checkout configuration', path.id,
    'checkout_configuration:basic:read', { softDeleted: true }));
