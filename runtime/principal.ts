// Who is calling: the credential, the account or user behind it, what it may do, and its version pin.
export type AuthKind = 'api_key' | 'user_token' | 'client';

export interface Principal {
  kind: AuthKind;
  /** the credential's id: idempotency keys and audit are scoped to it */
  credentialId: string;
  /** the account an API key or client id belongs to */
  accountId: string | null;
  /** the user behind a user token */
  userId: string | null;
  /** an API key's scopes: its inherited role's, or its explicit statements' */
  keyScopes: ScopeSet | null;
  versionPin: string | null;
  /** a client id's account's allowed browser origins (runtime/cors.ts) */
  allowedOrigins?: readonly string[];
  /** an API key's factor on the request budgets (runtime/rate-limit.ts); 1 when absent */
  rateLimitMultiplier?: number;
  /** the app an API key belongs to (it acts for the app's account, accountId); null or absent otherwise */
  appId?: string | null;
  /** the sandbox clock an API key's account runs on (runtime/clock.ts); null or absent: real time */
  clockId?: string | null;
}

/** A set of scopes with `*` and `prefix:*` wildcards, and explicit denials that win. */
export class ScopeSet {
  private readonly allow: string[];
  private readonly deny: string[];
  constructor(allow: readonly string[], deny: readonly string[] = []) {
    this.allow = [...allow];
    this.deny = [...deny];
  }
  private static matches(pattern: string, scope: string): boolean {
    if (pattern === '*' || pattern === scope) return true;
    return pattern.endsWith(':*') && scope.startsWith(pattern.slice(0, -1));
  }
  has(scope: string): boolean {
    return this.allow.some((p) => ScopeSet.matches(p, scope)) && !this.deny.some((p) => ScopeSet.matches(p, scope));
  }
  union(other: ScopeSet): ScopeSet {
    return new ScopeSet([...this.allow, ...other.allow], [...this.deny, ...other.deny]);
  }
  static readonly none = new ScopeSet([]);
}
