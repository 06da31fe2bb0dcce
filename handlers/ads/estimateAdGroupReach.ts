// Written by hand, not declared plain: a reach estimate from the ad network for a body's audiences, no stored row.
import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { audiencesOf } from './group-rules.js';
import { audienceSizes, checkAudiences } from './references.js';
import { adNetwork } from './ad-network-port.js';

/** POST /ad_groups/estimate_reach: the runtime has checked ads:read on account_id; nothing is written. */
export const estimateAdGroupReach: Handler<'estimateAdGroupReach'> = async ({ body }, ctx) => {
  const audiences = audiencesOf(body.audiences);
  await checkAudiences(ctx.db, body.account_id, audiences);
  const d = body.demographics;
  if (d?.minimum_age !== undefined && d.maximum_age !== undefined && d.maximum_age < d.minimum_age) {
    throw invalid('maximum_age is below minimum_age', 'demographics.maximum_age');
  }
  const sizes = await audienceSizes(ctx.db, [...audiences.include, ...audiences.exclude]);
  return adNetwork().estimateReach({ ...body, audiences }, sizes);
};
