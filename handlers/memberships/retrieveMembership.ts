import type { Handler } from '../../generated/handler.js';
import { findReadableMembership } from './find-membership.js';
import { resources } from '../../generated/resources.js';

/** GET /memberships/{id}: by mem_ id or license key. */
export const retrieveMembership: Handler<'retrieveMembership'> = async ({ path }, ctx) =>
  resources.Membership.view(await findReadableMembership(ctx, path.id));
