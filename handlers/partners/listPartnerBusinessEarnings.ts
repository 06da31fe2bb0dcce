import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { ownPartnerBusiness, pageOf } from './partner-access.js';

/** GET /partners/businesses/{id}/earnings: the commissions one referral earned the caller, newest first. */
export const listPartnerBusinessEarnings: Handler<'listPartnerBusinessEarnings'> = async ({ path, query }, ctx) => {
  const business = await ownPartnerBusiness(ctx, path.id);
  return pageOf(ctx, resources.PartnerEarning, 'partner_earnings', { partner_business_id: business.id, status: query.status }, query);
};
