// Accounts' websites (made from a blueprint, account-sites.ts) served by this server at /sites/<account route>/:
// a deployed site answers the build it deployed (apps/serve-build.ts); one still queued answers a 404 page saying
// so, with Retry-After (a state of the tenant's, not a fault of the server's: no 5xx); one whose deployment failed,
// or a route with no website, answers 404. The owner reads the state and the reason with GET /accounts/{id}/website.
import type { Knex } from 'knex';
import type { Context } from 'koa';
import type { ExtraRoute } from '../../runtime/app.js';
import { SITES_PATH } from '../shared/hosted-paths.js';
import { answerPage, pathUnder, serveBuild } from '../apps/index.js';

async function serveWebsite(ctx: Context, db: Knex): Promise<void> {
  const path = pathUnder(ctx);
  if (path === null) return;
  const route = String(ctx.params.route);
  const site = await db('account_sites as s').join('accounts as a', 'a.id', 's.account_id').where('a.route', route)
    .orderBy('s.created_at', 'desc').first('s.status', 's.app_build_id');
  if (!site) return answerPage(ctx, 404, 'No website here', `No website is served at '${route}'.`);
  if (site.status === 'queued') {
    return answerPage(ctx, 404, 'Being deployed', 'This website is being deployed; it is served here in a few seconds.', 5);
  }
  if (site.status !== 'deployed') {
    return answerPage(ctx, 404, 'Website not deployed',
      'This website\'s deployment failed, so nothing is served here. Its owner can see why with GET /accounts/{id}/website.');
  }
  const result = await serveBuild(ctx, db, site.app_build_id, path);
  if (result.served) return;
  answerPage(ctx, result.status, result.why ? 'Not available' : 'Not found', result.why ?? `This website has no page '${path}'.`);
}

export const websiteRoutes: ExtraRoute[] = [
  { method: 'GET', path: `${SITES_PATH}/:route{/*rest}`, handle: serveWebsite },
];
