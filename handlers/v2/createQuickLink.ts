// Written by hand, not declared plain: a v2 adapter: a new variant copied from a plan.
// POST /api/v2/plans/{id}/create_quick_link: a quick link is now a variant with visibility quick_link (POST
// /variants). The new variant copies the plan's product, type, period, currency and prices; the v2 body may
// override the prices, the stock, the slug and the title.
import { invalid } from '../../runtime/errors.js';
import type { V2Adapter } from '../../runtime/v2/route.js';

const OVERRIDABLE = ['initial_price', 'renewal_price', 'stock', 'short_link', 'title'];

export const createQuickLink: V2Adapter = async ({ input, inTransaction }) => {
  const overrides = input.body ?? {};
  for (const name of Object.keys(overrides)) {
    if (!OVERRIDABLE.includes(name)) throw invalid(`create_quick_link takes ${OVERRIDABLE.join(', ')}; ${name} is not accepted`, name);
  }
  return inTransaction(async (call) => {
    const plan = await call('retrieveVariant', { path: { id: input.path.id } });
    const renewal = plan.plan_type === 'renewal';
    return call('createVariant', {
      body: {
        account_id: plan.account_id,
        product_id: plan.product_id,
        plan_type: plan.plan_type,
        title: plan.title,
        currency: plan.currency,
        initial_price: plan.initial_price.amount,
        ...(renewal ? { billing_period: plan.billing_period, renewal_price: plan.renewal_price?.amount ?? 0, trial_period_days: plan.trial_period_days } : {}),
        ...(plan.three_d_secure_policy ? { three_d_secure_policy: plan.three_d_secure_policy } : {}),
        visibility: 'quick_link',
        ...overrides,
      },
    });
  });
};
