import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { pageOf } from './partner-access.js';

/** GET /partners/referral_requests: the caller's own, newest first. */
export const listPartnerReferralRequests: Handler<'listPartnerReferralRequests'> = async ({ query }, ctx) =>
  pageOf(ctx, resources.PartnerReferralRequest, 'partner_referral_requests', { user_id: ctx.principal.userId }, query);
