// One membership by mem_ id or license key, after the caller's read or manage check. A license key is found by its
// hash (handlers/memberships/license-key.ts), on its unique index. Every operation that takes one declares its id a
// secret in the spec (request logs redact it), so no path logs a key in the clear.
import { hashSecret } from '../../runtime/credentials.js';
import type { HandlerContext } from '../../generated/handler.js';
import { requireOwned } from '../../runtime/ownership.js';
import type { MembershipRow } from '../../generated/rows.js';
import { buyerCannotManage, buyerReads } from '../shared/buyer-rows.js';

const MANAGE = 'member:manage';
const READ = 'member:basic:read';

async function load(ctx: HandlerContext, idOrKey: string, forUpdate: boolean): Promise<MembershipRow | undefined> {
  const q = ctx.db('memberships').where(idOrKey.startsWith('mem_') ? { id: idOrKey } : { license_key_hash: hashSecret(idOrKey) });
  if (forUpdate) q.forUpdate();
  return q.first();
}

export async function findReadableMembership(ctx: HandlerContext, idOrKey: string): Promise<MembershipRow> {
  return requireOwned(ctx.access, await load(ctx, idOrKey, false), [READ], { noun: 'membership', id: idOrKey }, buyerReads(ctx));
}

/** Locked for the rest of the request's transaction. */
export async function findManageableMembership(ctx: HandlerContext, idOrKey: string): Promise<MembershipRow> {
  return requireOwned(ctx.access, await load(ctx, idOrKey, true), [MANAGE], { noun: 'membership', id: idOrKey },
    buyerCannotManage(ctx, 'membership', MANAGE));
}
