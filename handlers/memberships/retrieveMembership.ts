import type { Handler } from '../../generated/handler.js';
import { findReadableMembership } from './find-membership.js';
import { resources } from '../../generated/resources.js';

/** GET /memberships/{id}: by mem_ id or license key. Written, not plain: a license key is found by its hash, and a
 * 404 names the key as sent (a path alias would resolve it first, and its 404 would tell a stranger the key's
 * membership id). */
export const retrieveMembership: Handler<'retrieveMembership'> = async ({ path }, ctx) =>
  resources.Membership.view(await findReadableMembership(ctx, path.id));
