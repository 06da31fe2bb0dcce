import type { Handler } from '../../generated/handler.js';
import { mergeMetadata } from '../../runtime/metadata.js';
import { findManageableMembership } from './find-membership.js';
import { resources } from '../../generated/resources.js';
import { membershipEventData } from './membership-events.js';
import { nowMs } from '../shared/now.js';

/** PATCH /memberships/{id}: metadata merges key by key (null removes a key); {} clears it. */
export const updateMembership: Handler<'updateMembership'> = async ({ path, body }, ctx) => {
  const row = await findManageableMembership(ctx, path.id);
  if (body.metadata === undefined) return resources.Membership.view(row);
  const metadata = Object.keys(body.metadata).length === 0 ? {} : mergeMetadata(row.metadata, body.metadata);
  const [updated] = await ctx.db('memberships').where({ id: row.id })
    .update({ metadata: JSON.stringify(metadata), updated_at: nowMs(ctx.db) }).returning('*');
  const view = resources.Membership.view(updated);
  await ctx.emit('membership.updated', updated.account_id, membershipEventData(view));
  return view;
};
