// Who reaches a plain operation's row beside the account's scopes: its user (`own`) or its owner column (`owner`).
import type { ApiSpec, OperationSpec, OwnerSpec, OwnSpec, PlainSpec } from '../spec-types.js';
import type { TableColumns } from '../emit-rows.js';
import { targetOf, type StoredModel } from './stored-resources.js';
import { tsLiteral as literal } from './ts-literal.js';
import type { Problem } from './plain-shared.js';

/** `own`: the row's user, named by a column, reaches it by their own user token (runtime/plain/own-rows.ts). */
export function ownOption(op: OperationSpec, own: OwnSpec, resource: StoredModel, problem: Problem): string {
  const target = targetOf(resource, own.user);
  if (typeof target === 'string' || !target.column) {
    problem(['plain', 'own', 'user'], `names ${own.user}, which is not a column of ${resource.table}${typeof target === 'string' ? ` (${target})` : ''}`);
  }
  if (!op.auth.includes('user_token')) problem(['plain', 'own'], 'gives the row to its user\'s own token, but the operation does not take user tokens (auth)', true);
  if (own.only && op.scopes.length) problem(['scopes'], 'are never checked: with own.only the row\'s user alone reads it; declare none');
  if (own.only && own.refused) problem(['plain', 'own', 'refused'], 'cannot be: with own.only nobody else reads the row, so the user is never refused', true);
  const column = typeof target === 'string' ? own.user : target.column ?? own.user;
  return literal({ user: column, ...(own.refused ? { refused: own.refused } : {}), ...(own.only ? { only: true } : {}) });
}

/**
 * `owner`: the row's owner, named by a column, is an account (reached with the operation's scopes on it) or a user
 * (an id with the User resource's prefix: reached by their own user token alone); a list is of one owner, the one
 * its `query` parameter names or the caller's own (runtime/plain/row-owner.ts). It replaces the account rules, so
 * it takes none of the other ways to them.
 */
export function ownerOption(spec: ApiSpec, op: OperationSpec, plain: PlainSpec, owner: OwnerSpec, resource: StoredModel,
  tables: TableColumns | null, problem: Problem): string {
  const target = targetOf(resource, owner.column);
  const columns = tables?.tables[resource.table];
  if (typeof target === 'string' || !target.column || (columns && !(target.column in columns))) {
    const why = typeof target === 'string' ? ` (${target})` : columns ? ' (migrations/tables.json)' : '';
    problem(['plain', 'owner', 'column'], `names ${owner.column}, which is not a column of ${resource.table}${why}`);
  }
  const userPrefix = spec.resources.User?.prefix;
  if (!userPrefix) problem(['plain', 'owner'], 'tells users\' ids by the User resource\'s prefix, but the spec has no User with a prefix', true);
  if (owner.query !== undefined) {
    if (plain.kind !== 'list') problem(['plain', 'owner', 'query'], `is for a list, which it narrows to one owner; a plain ${plain.kind} finds its row by id`);
    else if (!(owner.query in op.query)) problem(['plain', 'owner', 'query'], `names ${owner.query}, which is not a query parameter of the operation`);
    else if (plain.filters && owner.query in plain.filters) problem(['plain', 'filters', owner.query], `tests ${owner.query}, which names the owner (plain.owner.query); it is no filter`, true);
  }
  for (const other of ['own', 'parent', 'held_nowhere', 'find'] as const) {
    if (plain[other] !== undefined) problem(['plain', other], 'is not taken with owner: the owner\'s column decides who reaches the rows', true);
  }
  if (plain.kind === 'list' && op.account) problem(['account'], 'is not taken with plain.owner: the owner is the account (or user) the rows belong to', true);
  const column = typeof target === 'string' ? owner.column : target.column ?? owner.column;
  return literal({ column: `${resource.table}.${column}`, ...(owner.query ? { param: owner.query } : {}), userPrefix: userPrefix ?? '' });
}
