// Which accounts a user holds a scope on, as one SQL subquery, so account lists filter and page in the database.
// It mirrors runtime/access.ts: a team member acts on the account and its connected accounts, and a role (or a
// custom role's permission patterns, with `*` and `prefix:*` wildcards) grants the scope.
import type { Knex } from 'knex';
import { roleScopes } from '../../runtime/auth.js';
import { specData } from '../../generated/spec-data.js';

/** The permission patterns that grant a scope: `*`, every `prefix:*` above it, and the scope itself. */
export function patternsGranting(scope: string): string[] {
  const parts = scope.split(':');
  return ['*', ...parts.slice(0, -1).map((_, i) => `${parts.slice(0, i + 1).join(':')}:*`), scope];
}

function rolesGranting(scope: string): string[] {
  return Object.keys(specData.roles).filter((role) => roleScopes(role).has(scope));
}

/** Ids of accounts on which the user holds `scope` through an active team membership. */
export function accountsWhereUserHolds(db: Knex, userId: string, scope: string): Knex.QueryBuilder {
  const memberships = db('team_members')
    .select('account_id')
    .where({ user_id: userId, status: 'active' })
    .where((q) => q
      .whereIn('role', rolesGranting(scope))
      .orWhere((c) => c.where('role', 'custom').whereRaw('permissions && ?::text[]', [patternsGranting(scope)])));
  return db('accounts').select('id').whereIn('id', memberships.clone()).orWhereIn('parent_id', memberships);
}
