// One membership by mem_ id or license key, after the caller's read or manage check.
import type { HandlerContext } from '../../runtime/handler.js';
import { requireManageable, requireReadable } from './readable-rows.js';
import type { MembershipRow } from './membership-view.js';

const MANAGE = 'member:manage';
const READ = 'member:basic:read';

async function load(ctx: HandlerContext, idOrKey: string, forUpdate: boolean): Promise<MembershipRow | undefined> {
  const q = ctx.db('memberships').where(idOrKey.startsWith('mem_') ? { id: idOrKey } : { license_key: idOrKey });
  if (forUpdate) q.forUpdate();
  return q.first();
}

export async function findReadableMembership(ctx: HandlerContext, idOrKey: string): Promise<MembershipRow> {
  const row = await load(ctx, idOrKey, false);
  await requireReadable(ctx, row, READ, 'membership', idOrKey);
  return row!;
}

/** Locked for the rest of the request's transaction. */
export async function findManageableMembership(ctx: HandlerContext, idOrKey: string): Promise<MembershipRow> {
  const row = await load(ctx, idOrKey, true);
  await requireManageable(ctx, row, MANAGE, 'membership', idOrKey);
  return row!;
}
