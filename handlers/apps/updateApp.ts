import { invalid } from '../../runtime/errors.js';
import type { UpdateHook } from '../../generated/plain-hooks.js';
import { checkHttpsUrl, checkRedirectUris, checkRoute } from './app-rules.js';
import { serveAppAt } from './app-domains.js';

/** PATCH /apps/{id} (plain update): the sent settings are checked as on create; a new route moves the app's active
 * domain (app-domains.ts) in the request's transaction, before the row is written. The deployment is fixed. */
export const updateApp: UpdateHook<'updateApp'> = async (app, body, ctx) => {
  const checked = { ...body };
  if (body.base_url !== undefined && body.base_url !== null) checked.base_url = checkHttpsUrl(body.base_url, 'base_url');
  if (body.redirect_uris !== undefined) checked.redirect_uris = checkRedirectUris(body.redirect_uris);
  if (body.route !== undefined) {
    if (app.deployment !== 'hosted') throw invalid('An API integration has no route: only hosted apps are served at one', 'route');
    checked.route = checkRoute(body.route);
    if (checked.route !== app.route) await serveAppAt(ctx.db, app, checked.route);
  }
  return checked;
};
