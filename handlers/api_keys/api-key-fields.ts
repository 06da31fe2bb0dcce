// The ApiKey fields only code can read from a row (spec/areas/api_keys.yaml names them under columns: code).
import type { ApiKey } from '../../generated/types.js';
import type { ApiKeyRow } from '../../generated/rows.js';

/** revoked once revoked_at is set, else expired once expires_at has passed, else active. */
export function apiKeyStatus(row: ApiKeyRow, now = Date.now()): ApiKey['status'] {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at && Date.parse(row.expires_at) <= now) return 'expired';
  return 'active';
}

/** An inherited role, or explicit statements: never both. */
export const apiKeyPermissions = (row: ApiKeyRow): ApiKey['permissions'] => ({
  role: row.role,
  // jsonb written from the validated body (ApiKeyPermissions.statements)
  statements: row.role ? [] : row.statements as ApiKey['permissions']['statements'],
});
