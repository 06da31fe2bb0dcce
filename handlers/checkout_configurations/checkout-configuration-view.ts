// checkout_configurations rows -> the CheckoutConfiguration resource.
import type { CheckoutConfiguration } from '../../generated/types.js';
import type { Row } from '../products/catalogue-access.js';
import { configurationPurchaseUrl } from './purchase-url.js';

export function checkoutConfigurationView(row: Row): CheckoutConfiguration {
  return {
    id: row.id,
    account_id: row.account_id,
    mode: row.mode,
    plan_id: row.plan_id,
    redirect_url: row.redirect_url,
    three_d_secure_policy: row.three_d_secure_policy,
    purchase_url: configurationPurchaseUrl(row.id),
    metadata: row.metadata,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
