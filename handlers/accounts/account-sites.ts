// Hosted websites built from a blueprint (a hosted app). Creating one checks the blueprint, counts the use on the
// app (its template_usage) and records the site as queued with its deployment job, all in the account's creating
// transaction; the deploy_blueprint task then deploys the blueprint's production web build at the account's route,
// or fails the site when the blueprint has no approved one. The API never waits for the deployment: GET
// /accounts/{id}/website shows its state, and website-pages.ts serves the deployed build at /sites/<route>/.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import type { HandlerContext } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { loadApp } from '../apps/index.js';
import { nowMs } from '../shared/now.js';
import { websitePath } from '../shared/hosted-paths.js';

export const DEPLOY_BLUEPRINT = 'deploy_blueprint';

/** The blueprint must be a hosted app the caller can see (404 naming blueprint_id otherwise): an API integration
 * has nothing to deploy. Checked before the account is written, so a refused blueprint writes nothing. */
export async function checkBlueprint(ctx: HandlerContext, blueprintId: string): Promise<void> {
  const app = await loadApp(ctx, blueprintId, ['developer:basic:read'], 'blueprint_id');
  if (app.deployment !== 'hosted') {
    throw invalid(`The app ${blueprintId} is an API integration; a blueprint must be a hosted app`, 'blueprint_id');
  }
}

export async function queueSiteDeployment(ctx: HandlerContext, accountId: string, blueprintId: string): Promise<string> {
  const id = newId('site_');
  await ctx.db('apps').where({ id: blueprintId }).increment('template_usage', 1);
  await ctx.db('account_sites').insert({ id, account_id: accountId, blueprint_id: blueprintId, status: 'queued' });
  await ctx.addJob(DEPLOY_BLUEPRINT, { site_id: id }, { jobKey: `${DEPLOY_BLUEPRINT}:${id}` });
  return id;
}

/** Deploys a queued site. Idempotent: a retried or duplicate job finds the site no longer queued and does nothing. */
export async function deploySite(db: Knex, siteId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const site = await trx('account_sites').where({ id: siteId }).forUpdate().first();
    if (site?.status !== 'queued') return;
    const build = await trx('apps as a').join('app_builds as b', 'b.id', 'a.production_web_build_id')
      .where('a.id', site.blueprint_id).first('b.id', 'b.status');
    if (build?.status !== 'approved') {
      const failureReason = build
        ? `The blueprint's production web build ${build.id} is ${build.status}, not approved`
        : `The blueprint ${site.blueprint_id} has no production web build`;
      await trx('account_sites').where({ id: siteId }).update({ status: 'failed', failure_reason: failureReason, updated_at: nowMs(trx) });
      return;
    }
    const account = await trx('accounts').where({ id: site.account_id }).first('route');
    await trx('account_sites').where({ id: siteId }).update({
      // The path, not an address: the view puts PUBLIC_BASE_URL before it when read (website-fields.ts).
      status: 'deployed', app_build_id: build.id, url: websitePath(account.route),
      deployed_at: nowMs(trx), updated_at: nowMs(trx),
    });
  });
}

export function deployBlueprint(db: Knex): Task {
  return async (payload) => {
    const siteId = (payload as { site_id?: unknown })?.site_id;
    if (typeof siteId !== 'string') throw new Error('deploy_blueprint needs a site_id');
    await deploySite(db, siteId);
  };
}
