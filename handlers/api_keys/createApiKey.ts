// Written by hand, not declared plain: issues a secret, returned this once (api-key-service.ts).
import type { Handler } from '../../generated/handler.js';
import { parseVersionDate } from '../../runtime/versions.js';
import { issueApiKey } from './api-key-service.js';
import { checkExpiry, checkGrantable, checkIpAllowlist, checkPolicy } from './api-key-policy.js';
import { resources } from '../../generated/resources.js';
import { notFound } from '../../runtime/errors.js';
import type { HandlerContext } from '../../generated/handler.js';

/** An app's key is issued on the app's own account: an app of another account is not found there. */
async function appOf(ctx: HandlerContext, accountId: string, appId: string | undefined): Promise<string | null> {
  if (appId === undefined) return null;
  const app = await ctx.db('apps').where({ id: appId, account_id: accountId }).first('id');
  if (!app) throw notFound('app', appId, 'app_id');
  return app.id;
}

/** POST /api_keys: the runtime has checked api_key:manage on the account; the secret is returned this once. */
export const createApiKey: Handler<'createApiKey'> = async ({ body }, ctx) => {
  const policy = checkPolicy(body.role, body.statements);
  const ipAllowlist = checkIpAllowlist(body.ip_allowlist ?? []);
  const expiresAt = checkExpiry(body.expires_at ?? null);
  // The version in force on the given date is stored, so releasing a version later never moves this pin.
  const apiVersionDate = body.api_version_date === undefined ? undefined : parseVersionDate(body.api_version_date, 'api_version_date');
  checkGrantable(policy, (await ctx.access.scopesOn(body.account_id))!, body.account_id);
  const appId = await appOf(ctx, body.account_id, body.app_id);

  const { row, secret } = await issueApiKey(ctx.db, {
    accountId: body.account_id,
    appId,
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
