import type { Handler } from '../../runtime/handler.js';
import { parseVersionDate } from '../../runtime/versions.js';
import { issueApiKey } from './api-key-service.js';
import { checkExpiry, checkGrantable, checkIpAllowlist, checkPolicy } from './api-key-policy.js';
import { resources } from '../../generated/resources.js';

/** POST /api_keys: the runtime has checked api_key:manage on the account; the secret is returned this once. */
export const createApiKey: Handler<'createApiKey'> = async ({ body }, ctx) => {
  const policy = checkPolicy(body.role, body.statements);
  const ipAllowlist = checkIpAllowlist(body.ip_allowlist ?? []);
  const expiresAt = checkExpiry(body.expires_at ?? null);
  // The version in force on the given date is stored, so releasing a version later never moves this pin.
  const apiVersionDate = body.api_version_date === undefined ? undefined : parseVersionDate(body.api_version_date, 'api_version_date');
  checkGrantable(policy, (await ctx.access.scopesOn(body.account_id))!, body.account_id);

  const { row, secret } = await issueApiKey(ctx.db, {
    accountId: body.account_id,
    name: body.name,
    role: policy.role,
    statements: policy.statements,
    ipAllowlist,
    expiresAt,
    apiVersionDate,
    createdByUserId: ctx.principal.userId,
  });
  await ctx.emit('api_key.created', row.account_id, resources.ApiKey.view(row));
  return { ...resources.ApiKey.view(row), secret };
};
