// The ApiKey fields only code can read from a row (spec/areas/api_keys.yaml names them under columns: code).
import type { ApiKey } from '../../generated/types.js';
import type { Row } from '../../runtime/plain/stored-resource.js';

/** revoked once revoked_at is set, else expired once expires_at has passed, else active. */
export function apiKeyStatus(row: Row, now = Date.now()): ApiKey['status'] {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at && Date.parse(row.expires_at) <= now) return 'expired';
  return 'active';
}

/** An inherited role, or explicit statements: never both. */
export const apiKeyPermissions = (row: Row): ApiKey['permissions'] => ({ role: row.role, statements: row.role ? [] : row.statements });
