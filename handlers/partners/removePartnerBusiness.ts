import type { Handler } from '../../generated/handler.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { ownPartnerBusiness } from './partner-access.js';

/** POST /partners/businesses/{id}/remove: the caller ends its relation; later payments earn it nothing
 * (handlers/partners/accrue.ts reads active relations only). Removing again changes nothing. */
export const removePartnerBusiness: Handler<'removePartnerBusiness'> = async ({ path }, ctx) => {
  const business = await ownPartnerBusiness(ctx, path.id);
  await ctx.db('partner_businesses').where({ id: business.id, status: 'active' })
    .update({ status: 'removed', removed_at: nowMs(ctx.db), updated_at: nowMs(ctx.db) });
  return readView(ctx.db, resources.PartnerBusiness, business.id);
};
