// The rules of the actions on one partner business (plain actions, spec/areas/partners.yaml): the runtime finds and
// locks the business for its partner alone (own.only: anyone else's is a 404, never leaked), runs the rule, and
// answers the business as it is then.
import type { ActionHook } from '../../generated/plain-hooks.js';
import { nowMs } from '../shared/now.js';

/** remove: the partner ends its relation; later payments earn it nothing (accrue.ts reads active relations only).
 * Removing again changes nothing. */
export const remove: ActionHook<'removePartnerBusiness'> = async (business, _input, ctx) => {
  await ctx.db('partner_businesses').where({ id: business.id, status: 'active' })
    .update({ status: 'removed', removed_at: nowMs(ctx.db), updated_at: nowMs(ctx.db) });
};
