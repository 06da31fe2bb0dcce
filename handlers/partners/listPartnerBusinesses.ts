import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { pageOf } from './partner-access.js';

/** GET /partners/businesses: the caller's referrals, newest first. */
export const listPartnerBusinesses: Handler<'listPartnerBusinesses'> = async ({ query }, ctx) =>
  pageOf(ctx, resources.PartnerBusiness, 'partner_businesses', { partner_user_id: ctx.principal.userId, status: query.status, tier: query.tier }, query);
