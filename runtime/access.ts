// What a principal may see and do on an account. Invisible accounts are 404s, never leaked;
// visible accounts without the scope are 403s.
import type { Knex } from 'knex';
import { forbidden, notFound } from './errors.js';
import { ScopeSet, type Principal } from './principal.js';
import { roleScopes } from './auth.js';
import { query } from './request-db.js';
import { cachesFor } from './shared-cache.js';
import { api } from './api-definition.js';

/** Scopes every user token holds on its own behalf (spec/api.yaml user_scopes). */
const userScopes = () => new ScopeSet(api().spec.userScopes);

export class Access {
  private readonly cache = new Map<string, Promise<ScopeSet | null>>();
  constructor(private readonly db: Knex, readonly principal: Principal) {}

  /** Scopes the principal holds on the account, or null when it cannot see it at all. */
  scopesOn(accountId: string): Promise<ScopeSet | null> {
    let hit = this.cache.get(accountId);
    if (!hit) {
      hit = this.lookup(accountId);
      this.cache.set(accountId, hit);
    }
    return hit;
  }

  private async lookup(accountId: string): Promise<ScopeSet | null> {
    const p = this.principal;
    // Cached per process until accounts or team members change (runtime/shared-cache.ts).
    const visibility = cachesFor(this.db).topics.visibility;
    if (p.kind === 'api_key' || p.kind === 'client') {
      const row = await visibility.load(`account:${accountId}`, async () =>
        (await query(this.db, 'select id, parent_id from accounts where id = $1', [accountId]))[0] ?? null);
      if (!row || (row.id !== p.accountId && row.parent_id !== p.accountId)) return null;
      return p.keyScopes ?? ScopeSet.none;
    }
    const rows = await this.memberRows(accountId);
    if (rows.length === 0) return null;
    return rows.reduce((acc: ScopeSet, r) => acc.union(roleScopes(r.role, r.permissions)), ScopeSet.none);
  }

  /** A user's active team memberships giving it the account: on the account itself, or on its parent (a team member
   * of an account also acts on that account's connected accounts). Cached per process like the scopes. */
  private memberRows(accountId: string): Promise<{ account_id: string; role: string; permissions: string[] }[]> {
    const userId = this.principal.userId!;
    return cachesFor(this.db).topics.visibility.load(`member:${userId}:${accountId}`, () => query(this.db, `select tm.account_id,
      tm.role, tm.permissions from team_members tm join accounts a on tm.account_id = a.id or tm.account_id = a.parent_id
      where a.id = $1 and tm.user_id = $2 and tm.status = 'active'`, [accountId, userId]));
  }

  /** Whether a user token's user holds one of `roles` on the account itself (not through its parent). */
  async holdsRoleOn(accountId: string, roles: readonly string[]): Promise<boolean> {
    if (this.principal.kind !== 'user_token') return false;
    return (await this.memberRows(accountId)).some((m) => m.account_id === accountId && roles.includes(m.role));
  }

  /** 404 when the account is not visible; 403 when a scope is missing. */
  async require(accountId: string, scopes: readonly string[], param?: string): Promise<void> {
    const held = await this.scopesOn(accountId);
    if (!held) throw notFound('account', accountId, param);
    const missing = scopes.filter((s) => !held.has(s));
    if (missing.length) throw forbidden(`This credential lacks the ${missing.join(', ')} permission on ${accountId}`);
  }

  async has(accountId: string, scope: string): Promise<boolean> {
    return (await this.scopesOn(accountId))?.has(scope) ?? false;
  }

  /** Whether the principal holds a scope without naming an account (user-level, or an API key's own). */
  holds(scope: string): boolean {
    const p = this.principal;
    if (p.kind === 'api_key') return p.keyScopes!.has(scope);
    if (p.kind === 'user_token') return userScopes().has(scope);
    return false;
  }

  /**
   * Narrows `query` to rows whose `column` is an account on which the principal holds `scope`, and returns how many
   * accounts grant it directly (0: the principal holds it nowhere). An API key's scopes are the same on every
   * account it sees; a user's come from their active role on each account and cover its connected accounts.
   * It adds a where clause rather than returning a builder: knex builders are thenable.
   */
  async whereHolds(query: Knex.QueryBuilder, column: string, scope: string): Promise<number> {
    const p = this.principal;
    if (p.kind !== 'user_token') {
      if (!p.keyScopes?.has(scope)) {
        query.whereRaw('false');
        return 0;
      }
      query.whereIn(column, this.visibleAccountIds());
      return 1;
    }
    const granting = await this.grantingAccounts(scope);
    query.whereIn(column, this.db('accounts').select('id').whereIn('id', granting).orWhereIn('parent_id', granting));
    return granting.length;
  }

  /** The accounts on which a user's active roles grant `scope` directly (their connected accounts inherit it). */
  private async grantingAccounts(scope: string): Promise<string[]> {
    const memberships = await this.db('team_members').where({ user_id: this.principal.userId!, status: 'active' })
      .select('account_id', 'role', 'permissions');
    return memberships.filter((m) => roleScopes(m.role, m.permissions).has(scope)).map((m) => m.account_id as string);
  }

  /** The ids of every account on which the principal holds `scope`, for statements that visit them one by one. */
  async accountsHolding(scope: string): Promise<string[]> {
    const p = this.principal;
    if (p.kind !== 'user_token') {
      if (!p.keyScopes?.has(scope)) return [];
      return (await this.visibleAccountIds()).map((r: { id: string }) => r.id);
    }
    const granting = await this.grantingAccounts(scope);
    if (granting.length === 0) return [];
    const rows = await this.db('accounts').select('id').whereIn('id', granting).orWhereIn('parent_id', granting);
    return rows.map((r: { id: string }) => r.id);
  }

  /** A subquery of the ids of every account the principal can see. */
  visibleAccountIds(): Knex.QueryBuilder {
    const p = this.principal;
    if (p.kind !== 'user_token') {
      return this.db('accounts').select('id').where('id', p.accountId!).orWhere('parent_id', p.accountId!);
    }
    const direct = this.db('team_members').select('account_id').where({ user_id: p.userId!, status: 'active' });
    return this.db('accounts').select('id').whereIn('id', direct.clone()).orWhereIn('parent_id', direct);
  }
}
