// What a principal may see and do on an account. Invisible accounts are 404s, never leaked;
// visible accounts without the scope are 403s.
import type { Knex } from 'knex';
import { forbidden, notFound } from './errors.js';
import { ScopeSet, type Principal } from './principal.js';
import { roleScopes } from './auth.js';
import { query } from './request-db.js';
import { cachesFor } from './shared-cache.js';
import { api } from './api-definition.js';
import { andThen, type Eventually } from './eventually.js';

/** Scopes every user token holds on its own behalf (spec/api.yaml user_scopes). */
const userScopes = () => new ScopeSet(api().spec.userScopes);

interface AccountRow {
  id: string;
  parent_id: string | null;
}

interface MemberRow {
  account_id: string;
  role: string;
  permissions: string[];
}

export class Access {
  /** per account: the scopes held (null: not visible), or their lookup while it runs */
  private readonly known = new Map<string, Eventually<ScopeSet | null>>();
  constructor(private readonly db: Knex, readonly principal: Principal) {}

  /** Scopes the principal holds on the account, or null when it cannot see it at all. Answered at once when they are
   * known (this request looked them up before, or the process's cache holds what they come from). */
  scopesOn(accountId: string): Eventually<ScopeSet | null> {
    const known = this.known.get(accountId);
    if (known !== undefined) return known;
    const found = this.lookup(accountId);
    this.known.set(accountId, found);
    if (found instanceof Promise) found.then((held) => this.known.set(accountId, held), () => {});
    return found;
  }

  private lookup(accountId: string): Eventually<ScopeSet | null> {
    const p = this.principal;
    if (p.kind === 'api_key' || p.kind === 'client') {
      // Cached per process until accounts or team members change (runtime/shared-cache.ts).
      const row = cachesFor(this.db).topics.visibility.load(`account:${accountId}`, async (): Promise<AccountRow | null> =>
        (await query<AccountRow>(this.db, 'select id, parent_id from accounts where id = $1', [accountId]))[0] ?? null);
      const keyScopes = (found: AccountRow | null) =>
        !found || (found.id !== p.accountId && found.parent_id !== p.accountId) ? null : p.keyScopes ?? ScopeSet.none;
      return andThen(row, keyScopes);
    }
    const members = this.memberRows(accountId);
    const memberScopes = (rows: MemberRow[]) => rows.length === 0 ? null
      : rows.reduce((acc: ScopeSet, r) => acc.union(roleScopes(r.role, r.permissions)), ScopeSet.none);
    return andThen(members, memberScopes);
  }

  /** A user's active team memberships giving it the account: on the account itself, or on its parent (a team member
   * of an account also acts on that account's connected accounts). Cached per process like the scopes. */
  private memberRows(accountId: string): Eventually<MemberRow[]> {
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

  /** 404 when the account is not visible; 403 when a scope is missing. Without a promise when the scopes are known. */
  require(accountId: string, scopes: readonly string[], param?: string): Eventually<void> {
    const held = this.scopesOn(accountId);
    const check = (found: ScopeSet | null) => {
      if (!found) throw notFound('account', accountId, param);
      const missing = scopes.filter((s) => !found.has(s));
      if (missing.length) throw forbidden(`This credential lacks the ${missing.join(', ')} permission on ${accountId}`);
    };
    return andThen(held, check);
  }

  has(accountId: string, scope: string): Eventually<boolean> {
    return andThen(this.scopesOn(accountId), (held) => held?.has(scope) ?? false);
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
