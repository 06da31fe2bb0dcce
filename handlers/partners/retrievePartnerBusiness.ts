import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { ownPartnerBusiness } from './partner-access.js';

/** GET /partners/businesses/{id}: one of the caller's referrals. */
export const retrievePartnerBusiness: Handler<'retrievePartnerBusiness'> = async ({ path }, ctx) =>
  resources.PartnerBusiness.view(await ownPartnerBusiness(ctx, path.id));
