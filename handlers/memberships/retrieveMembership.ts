import type { Handler } from '../../runtime/handler.js';
import { findReadableMembership } from './find-membership.js';
import { membershipView } from './membership-view.js';

/** GET /memberships/{id}: by mem_ id or license key. */
export const retrieveMembership: Handler<'retrieveMembership'> = async ({ path }, ctx) =>
  membershipView(await findReadableMembership(ctx, path.id));
