// Written by hand, not a plain transition: found by id or license key under the buyer's rules, and the move (resume.ts) is shared with the period step.
import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { findManageableMembership } from './find-membership.js';
import { resumeMembershipRow } from './resume.js';

/** POST /memberships/{id}/resume: paused -> active, a new period from now (resume.ts). */
export const resumeMembership: Handler<'resumeMembership'> = async ({ path }, ctx) =>
  resources.Membership.view(await resumeMembershipRow(ctx.db, await findManageableMembership(ctx, path.id)));
