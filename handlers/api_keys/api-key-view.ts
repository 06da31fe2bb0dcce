// api_keys rows -> the ApiKey resource. The secret exists only in the response that created it.
import type { ApiKey } from '../../generated/types.js';
import { formatDate } from '../../runtime/auth.js';

export type ApiKeyRow = Record<string, any>;

export function apiKeyStatus(row: ApiKeyRow, now = Date.now()): ApiKey['status'] {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at && Date.parse(row.expires_at) <= now) return 'expired';
  return 'active';
}

export function apiKeyView(row: ApiKeyRow, secret: string | null = null): ApiKey {
  return {
    id: row.id,
    account_id: row.account_id,
    name: row.name,
    secret,
    secret_hint: row.secret_hint,
    permissions: { role: row.role, statements: row.role ? [] : row.statements },
    ip_allowlist: row.ip_allowlist,
    expires_at: row.expires_at,
    api_version_date: row.api_version_date ? formatDate(row.api_version_date) : null,
    last_used_at: row.last_used_at,
    rotated_at: row.rotated_at,
    revoked_at: row.revoked_at,
    status: apiKeyStatus(row),
    created_at: row.created_at,
  };
}
