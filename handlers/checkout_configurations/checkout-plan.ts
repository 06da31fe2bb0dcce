// The variant a payment-mode checkout configuration sells: an existing one, or one created inline.
import type { CreateCheckoutConfigurationInput } from '../../generated/types.js';
import type { HandlerContext } from '../../generated/handler.js';
import { invalid, notFound } from '../../runtime/errors.js';
import { createVariant } from '../variants/index.js';

type Body = CreateCheckoutConfigurationInput['body'];

/** The plan_id to store: null in setup mode, else exactly one of plan_id or an inline plan. */
export async function checkoutPlanId(ctx: HandlerContext, body: Body): Promise<string | null> {
  if (body.mode === 'setup') {
    if (body.plan_id !== undefined) throw invalid('Setup mode saves a payment method and sells no variant; remove plan_id', 'plan_id');
    if (body.plan !== undefined) throw invalid('Setup mode saves a payment method and sells no variant; remove plan', 'plan');
    return null;
  }
  if (body.plan_id !== undefined && body.plan !== undefined) throw invalid('Send either plan_id or plan, not both', 'plan');
  if (body.plan_id !== undefined) {
    const plan = await ctx.db('plans').where({ id: body.plan_id, account_id: body.account_id }).whereNull('deleted_at').first('id');
    if (!plan) throw notFound('variant', body.plan_id, 'plan_id');
    return plan.id;
  }
  if (body.plan === undefined) throw invalid('Payment mode needs a variant: send plan_id or plan', 'plan_id');
  if (body.plan.account_id !== body.account_id) {
    throw invalid('plan.account_id must be the configuration\'s account_id', 'plan.account_id');
  }
  await ctx.access.require(body.account_id, ['plan:create'], 'plan.account_id');
  return (await createVariant(ctx, body.plan, 'plan.')).id;
}
