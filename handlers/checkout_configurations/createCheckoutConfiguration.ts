// Written by hand, not declared plain: may create an inline variant (another table, plan.created) before the row.
import type { Handler } from '../../generated/handler.js';
import { newId } from '../../runtime/ids.js';
import { dropNulls } from '../../runtime/metadata.js';
import { checkChallengeAllowedFor } from '../shared/three-d-secure.js';
import { checkoutPlanId } from './checkout-plan.js';
import { resources } from '../../generated/resources.js';

/** POST /checkout_configurations: the runtime has checked checkout_configuration:create on account_id. */
export const createCheckoutConfiguration: Handler<'createCheckoutConfiguration'> = async ({ body }, ctx) => {
  if (body.three_d_secure_policy === 'mandate_challenge') await checkChallengeAllowedFor(ctx.db, body.account_id);
  const planId = await checkoutPlanId(ctx, body);
  const [row] = await ctx.db('checkout_configurations').insert({
    id: newId('chcfg_'),
    account_id: body.account_id,
    mode: body.mode,
    plan_id: planId,
    redirect_url: body.redirect_url ?? null,
    three_d_secure_policy: body.three_d_secure_policy ?? null,
    metadata: JSON.stringify(dropNulls(body.metadata)),
  }).returning('*');
  const view = resources.CheckoutConfiguration.view(row);
  await ctx.emit('checkout_configuration.created', body.account_id, view);
  return view;
};
