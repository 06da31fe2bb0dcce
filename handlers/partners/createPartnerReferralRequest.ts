// Written by hand, not declared plain: a row of the caller's user, not of an account, with a link built from their username.
import type { Handler } from '../../generated/handler.js';
import { newId } from '../../runtime/ids.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { publicBaseUrl } from '../shared/public-url.js';

/** POST /partners/referral_requests: the caller's referral link, recorded; `a` is the affiliate_code it carries. */
export const createPartnerReferralRequest: Handler<'createPartnerReferralRequest'> = async ({ body }, ctx) => {
  const user = await ctx.db('users').where({ id: ctx.principal.userId! }).first('username');
  const id = newId('prr_');
  await ctx.db('partner_referral_requests').insert({
    id, user_id: ctx.principal.userId!, request_type: body.request_type,
    referral_link: `${publicBaseUrl()}/?a=${encodeURIComponent(user.username)}`,
  });
  return readView(ctx.db, resources.PartnerReferralRequest, id);
};
