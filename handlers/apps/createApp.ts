// Written by hand, not declared plain: a hosted app claims its route's domain (another table) in the same transaction.
import type { Handler } from '../../generated/handler.js';
import { newId } from '../../runtime/ids.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { checkDeployment, checkHttpsUrl, checkRedirectUris } from './app-rules.js';
import { serveAppAt } from './app-domains.js';

/** POST /apps: the runtime has checked developer:create_app on the account. A hosted app gets its route's domain in
 * the same transaction, so a taken route refuses the whole request. */
export const createApp: Handler<'createApp'> = async ({ body }, ctx) => {
  const { deployment, route } = checkDeployment(body.deployment, body.route);
  const baseUrl = body.base_url === undefined ? null : checkHttpsUrl(body.base_url, 'base_url');
  const redirectUris = checkRedirectUris(body.redirect_uris ?? []);
  const [app] = await ctx.db('apps').insert({
    id: newId('app_'),
    account_id: body.account_id,
    name: body.name,
    description: body.description ?? null,
    app_type: body.app_type,
    deployment,
    route,
    base_url: baseUrl,
    redirect_uris: redirectUris,
    created_by_user_id: ctx.principal.userId,
  }).returning(['id', 'account_id']);
  if (route !== null) await serveAppAt(ctx.db, app, route);
  const view = await readView(ctx.db, resources.App, app.id);
  await ctx.emit('app.created', app.account_id, view);
  return view;
};
