// Hosted apps served by this server at /apps/<route>/ (their hosted_url and domains' url): the active route answers
// the app's approved production web build (serve-build.ts), a previous route redirects (308) to the active one, and
// an app without an approved production web build answers a 404 page saying so until it has one (a state of the
// tenant's, not a fault of the server's: no 5xx).
import type { Knex } from 'knex';
import type { Context } from 'koa';
import type { ExtraRoute } from '../../runtime/app.js';
import { APPS_PATH, hostedAppPath } from '../shared/hosted-paths.js';
import { hostnameOf } from './app-rules.js';
import { routeOfHostname } from './app-urls.js';
import { answerPage, pathUnder, serveBuild } from './serve-build.js';

async function serveHostedApp(ctx: Context, db: Knex): Promise<void> {
  const path = pathUnder(ctx);
  if (path === null) return;
  const route = String(ctx.params.route);
  const domain = await db('app_domains').where({ hostname: hostnameOf(route) }).first('app_id', 'status');
  if (!domain) return answerPage(ctx, 404, 'No app here', `No app is served at the route '${route}'.`);
  if (domain.status === 'previous') {
    const active = await db('app_domains').where({ app_id: domain.app_id, status: 'active' }).first('hostname');
    if (!active) return answerPage(ctx, 404, 'No app here', `The app once served at '${route}' is served nowhere now.`);
    ctx.redirect(`${hostedAppPath(routeOfHostname(active.hostname))}${path.split('/').map(encodeURIComponent).join('/')}${ctx.search}`);
    ctx.status = 308;
    return;
  }
  const build = await db('apps as a').join('app_builds as b', 'b.id', 'a.production_web_build_id')
    .where('a.id', domain.app_id).first('b.id', 'b.status');
  if (build?.status !== 'approved') {
    return answerPage(ctx, 404, 'Not published yet',
      `The app at '${route}' has no approved production web build yet; it is served here once one is promoted.`);
  }
  const result = await serveBuild(ctx, db, build.id, path);
  if (result.served) return;
  answerPage(ctx, result.status, result.why ? 'Not available' : 'Not found', result.why ?? `The app at '${route}' has no page '${path}'.`);
}

export const hostedAppRoutes: ExtraRoute[] = [
  { method: 'GET', path: `${APPS_PATH}/:route{/*rest}`, handle: serveHostedApp },
];
