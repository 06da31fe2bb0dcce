// plans rows -> the Variant resource. Prices are stored in minor units; responses carry money objects.
import type { Variant } from '../../generated/types.js';
import { money } from '../../runtime/money.js';
import { variantPurchaseUrl } from '../checkout_configurations/purchase-url.js';
import type { Row } from '../products/catalogue-access.js';

export function variantView(row: Row): Variant {
  const renewal = row.plan_type === 'renewal';
  return {
    id: row.id,
    account_id: row.account_id,
    product_id: row.product_id,
    title: row.title,
    plan_type: row.plan_type,
    billing_period: renewal ? row.billing_period_days : null,
    trial_period_days: renewal ? row.trial_period_days : null,
    currency: row.currency,
    initial_price: money(Number(row.initial_price), row.currency),
    renewal_price: renewal ? money(Number(row.renewal_price), row.currency) : null,
    visibility: row.visibility,
    stock: row.stock,
    short_link: row.short_link,
    three_d_secure_policy: row.three_d_secure_policy,
    purchase_url: variantPurchaseUrl(row as { id: string; short_link: string | null }),
    metadata: row.metadata,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
