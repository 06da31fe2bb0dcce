// Authorization header -> Principal, or a 401 that says which way the credential failed.
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { Knex } from 'knex';
import { unauthenticated } from './errors.js';
import { hashSecret } from './credentials.js';
import { query } from './request-db.js';
import { ScopeSet, type Principal } from './principal.js';
import { cachesFor } from './shared-cache.js';
import { api } from './api-definition.js';
import { andThen, type Eventually } from './eventually.js';

export interface Statement {
  effect: 'allow' | 'deny';
  actions: string[];
}

export function roleScopes(role: string, permissions: readonly string[] = []): ScopeSet {
  return new ScopeSet(role === 'custom' ? permissions : api().spec.roles[role] ?? []);
}

export function statementScopes(statements: Statement[]): ScopeSet {
  const allow = statements.filter((s) => s.effect === 'allow').flatMap((s) => s.actions);
  const deny = statements.filter((s) => s.effect === 'deny').flatMap((s) => s.actions);
  return new ScopeSet(allow, deny);
}

function ipAllowed(allowlist: string[], ip: string): boolean {
  if (allowlist.length === 0) return true;
  const list = new BlockList();
  for (const entry of allowlist) {
    const [address, bits] = entry.split('/');
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (bits !== undefined) list.addSubnet(address, Number(bits), type);
    else list.addAddress(address, type);
  }
  const bare = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  return list.check(bare, isIPv6(bare) ? 'ipv6' : 'ipv4');
}

const isPast = (ts: string | null) => ts !== null && Date.parse(ts) <= Date.now();

/** The caller the Authorization header names. Without a promise when its credential is cached (runtime/shared-cache.ts). */
export function authenticate(db: Knex, header: string | undefined, ip: string): Eventually<Principal> {
  if (!header) throw unauthenticated('No credentials: send Authorization: Bearer <API key or user token>, or a client id');
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (!bearer) {
    if (/\s/.test(header.trim())) throw unauthenticated('The Authorization header is malformed; use Bearer <API key or user token>');
    if (/^(sk|utok)_/.test(header.trim())) {
      throw unauthenticated(`Send ${header.trim().startsWith('sk_') ? 'an API key' : 'a user token'} as Authorization: Bearer <secret>; without Bearer the header is read as a client id`);
    }
    return clientCaller(db, header.trim());
  }
  const secret = bearer[1];
  if (secret.startsWith('sk_')) return apiKeyCaller(db, secret, ip);
  if (secret.startsWith('utok_')) return userTokenCaller(db, secret);
  throw unauthenticated('Unknown credential: API keys start with sk_ and user tokens with utok_');
}

function clientCaller(db: Knex, clientId: string): Eventually<Principal> {
  // Unknown ids are not kept: a new account's client id must work at once.
  const account = cachesFor(db).topics.credentials.load(`client:${clientId}`,
    async () => (await query(db, 'select id, allowed_origins, clock_id from accounts where client_id = $1', [clientId]))[0] ?? null, Boolean);
  return andThen(account, (found): Principal => {
    if (!found) throw unauthenticated('Unknown client id');
    return {
      kind: 'client', credentialId: clientId, accountId: found.id, userId: null, keyScopes: null, versionPin: null,
      allowedOrigins: found.allowed_origins, clockId: found.clock_id,
    };
  });
}

function apiKeyCaller(db: Knex, secret: string, ip: string): Eventually<Principal> {
  const hash = hashSecret(secret);
  const credentials = cachesFor(db).topics.credentials;
  return andThen(credentials.load(`sk:${hash}`, () => loadApiKey(db, hash), Boolean), (key) => {
    if (!key) throw unauthenticated('Unknown API key');
    if (key.revoked_at) throw unauthenticated('This API key has been revoked');
    if (isPast(key.expires_at)) throw unauthenticated('This API key has expired');
    if (!ipAllowed(key.ip_allowlist, ip)) throw unauthenticated(`This API key may not be used from ${ip}`);
    // Use is recorded at minute resolution: most requests skip the write, and its await, entirely.
    if (key.lastUsedMs !== null && Date.now() - key.lastUsedMs < 60_000) return keyPrincipal(key);
    return touchLastUsed(db, key.id).then(() => {
      credentials.update<ApiKeyRow>(`sk:${hash}`, (k) => ({ ...k, lastUsedMs: Date.now() }));
      return keyPrincipal(key);
    });
  });
}

function userTokenCaller(db: Knex, secret: string): Eventually<Principal> {
  const hash = hashSecret(secret);
  const token = cachesFor(db).topics.credentials.load(`utok:${hash}`, async () =>
    (await query(db, 'select id, user_id, expires_at, revoked_at from user_tokens where secret_hash = $1', [hash]))[0] ?? null, Boolean);
  return andThen(token, (found): Principal => {
    if (!found) throw unauthenticated('Unknown user token');
    if (found.revoked_at) throw unauthenticated('This user token has been revoked');
    if (isPast(found.expires_at)) throw unauthenticated('This user token has expired');
    return { kind: 'user_token', credentialId: found.id, accountId: null, userId: found.user_id, keyScopes: null, versionPin: null };
  });
}

interface ApiKeyRow {
  id: string;
  account_id: string;
  app_id: string | null;
  ip_allowlist: string[];
  expires_at: string | null;
  revoked_at: string | null;
  /** last_used_at as epoch milliseconds, parsed once when loaded */
  lastUsedMs: number | null;
  rate_limit_multiplier: number;
  scopes: ScopeSet;
  versionPin: string | null;
  clockId: string | null;
}

function keyPrincipal(key: ApiKeyRow): Principal {
  return {
    kind: 'api_key', credentialId: key.id, accountId: key.account_id, userId: null, keyScopes: key.scopes, versionPin: key.versionPin,
    rateLimitMultiplier: key.rate_limit_multiplier, appId: key.app_id, clockId: key.clockId,
  };
}

const API_KEY_COLUMNS = `id, account_id, app_id, role, statements, ip_allowlist, api_version_date, expires_at,
    revoked_at, last_used_at, rate_limit_multiplier, (select a.clock_id from accounts a where a.id = api_keys.account_id) as clock_id`;
const API_KEY_BY_HASH = `select ${API_KEY_COLUMNS} from api_keys where secret_hash = $1`;
const API_KEY_BY_ID = `select ${API_KEY_COLUMNS} from api_keys where id = $1`;

/** The caller an API key is, found by its id rather than its secret: for the platform's own in-process replays of
 * the key's reads (runtime/replay.ts), which must act as the key without knowing its secret. Null when the key is
 * unknown, revoked or expired (it could not call). */
export async function apiKeyPrincipal(db: Knex, id: string): Promise<Principal | null> {
  const key = await loadApiKey(db, id, API_KEY_BY_ID);
  return key && !key.revoked_at && !isPast(key.expires_at) ? keyPrincipal(key) : null;
}

async function loadApiKey(db: Knex, value: string, statement = API_KEY_BY_HASH): Promise<ApiKeyRow | null> {
  const [key] = await query(db, statement, [value]);
  if (!key) return null;
  return {
    id: key.id, account_id: key.account_id, app_id: key.app_id, ip_allowlist: key.ip_allowlist, expires_at: key.expires_at,
    revoked_at: key.revoked_at, lastUsedMs: key.last_used_at === null ? null : Date.parse(key.last_used_at), rate_limit_multiplier: key.rate_limit_multiplier,
    scopes: key.role ? roleScopes(key.role) : statementScopes(key.statements),
    versionPin: key.api_version_date ? formatDate(key.api_version_date) : null,
    clockId: key.clock_id,
  };
}

async function touchLastUsed(db: Knex, keyId: string): Promise<void> {
  await query(db, `update api_keys set last_used_at = now()
    where id = $1 and (last_used_at is null or last_used_at < now() - interval '1 minute')`, [keyId]);
}

/** pg returns `date` columns as Date objects at local midnight. */
export function formatDate(value: Date | string): string {
  if (typeof value === 'string') return value.slice(0, 10);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${value.getFullYear()}-${p(value.getMonth() + 1)}-${p(value.getDate())}`;
}
