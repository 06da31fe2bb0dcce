// `plain.owner` of a retrieve or a list: a row belongs to the owner its column names, either an account or a user.
// An account is reached with the operation's scopes on it, as any account's row (runtime/ownership.ts: invisible is
// a 404, visible without a scope a 403); a user (an id with the users' prefix) only by that user's own user token,
// which needs no scope there, and anyone else does not see it (404). A list is of one owner: the one its query
// parameter names, else the caller's own (an API key's account, a user token's user).
import type { Knex } from 'knex';
import type { Access } from '../access.js';
import { forbidden, notFound } from '../errors.js';
import type { HandlerContext } from '../handler.js';
import type { Wanted } from '../ownership.js';
import type { Principal } from '../principal.js';
import { readRow, type Row, type RowRead, type StoredResource } from './stored-resource.js';

export interface RowOwnerSpec {
  /** the column naming the owner (table.column) */
  column: string;
  /** list: the query parameter naming the one owner listed; absent or not sent, the caller's own */
  param?: string;
  /** the prefix of user ids (every other owner is an account) */
  userPrefix: string;
}

/** What the caller may do on an owner's rows with `scopes`. */
async function ownerAccess(access: Access, owner: string, scopes: readonly string[], userPrefix: string):
  Promise<{ allowed: true } | { allowed: false; missing: string[] | null }> {
  if (owner.startsWith(userPrefix)) {
    const own = access.principal.kind === 'user_token' && access.principal.userId === owner;
    return own ? { allowed: true } : { allowed: false, missing: null };
  }
  const held = await access.scopesOn(owner);
  if (!held) return { allowed: false, missing: null };
  const missing = scopes.filter((s) => !held.has(s));
  return missing.length ? { allowed: false, missing } : { allowed: true };
}

/** The caller reaches `owner`'s rows with `scopes`: else a 404 naming `wanted` when it does not see the owner, a 403
 * when it sees the account but lacks a scope there. */
export async function requireOwner(access: Access, owner: string, scopes: readonly string[], userPrefix: string,
  wanted: Wanted): Promise<void> {
  const seen = await ownerAccess(access, owner, scopes, userPrefix);
  if (seen.allowed) return;
  if (!seen.missing) throw notFound(wanted.noun, wanted.id, wanted.param ?? 'id');
  throw forbidden(`This credential lacks the ${seen.missing.join(', ')} permission on ${owner}`);
}

/** The caller's own owner: an API key's account, a user token's user (null for a credential with neither). */
export const callersOwn = (principal: Principal): string | null =>
  (principal.kind === 'api_key' ? principal.accountId : principal.userId);

/** A row by id (locked when asked), if the caller reaches its owner (a row of an owner it does not see is a 404 as
 * an unknown id is). */
export async function loadByOwner(ctx: HandlerContext, resource: StoredResource<unknown>, id: string,
  scopes: readonly string[], owner: RowOwnerSpec, read: RowRead = 'row'): Promise<Row> {
  const row = await readRow(ctx.db, resource, id, read);
  if (!row) throw notFound(resource.noun, id, 'id');
  await requireOwner(ctx.access, row[owner.column.split('.').pop()!], scopes, owner.userPrefix, { noun: resource.noun, id });
  return row;
}

/** Narrows a list to one owner's rows, once the caller is found to reach them (a 404 names the query parameter and
 * the owner as a user or an account). */
export async function whereOwner(q: Knex.QueryBuilder, query: Record<string, unknown>, ctx: HandlerContext,
  scopes: readonly string[], owner: RowOwnerSpec): Promise<void> {
  const named = owner.param ? (query[owner.param] as string | undefined) : undefined;
  const id = named || callersOwn(ctx.principal);
  if (!id) {
    q.whereRaw('false');
    return;
  }
  const noun = id.startsWith(owner.userPrefix) ? 'user' : 'account';
  await requireOwner(ctx.access, id, scopes, owner.userPrefix, { noun, id, param: owner.param });
  q.where(owner.column, id);
}
