// Hosted websites built from a blueprint (an app id). Creating one records it as queued and queues its
// deployment; the deploy_blueprint task marks it deployed. The API never waits for the deployment.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import type { HandlerContext } from '../../runtime/handler.js';
import { newId } from '../../runtime/ids.js';

export const DEPLOY_BLUEPRINT = 'deploy_blueprint';

export async function queueSiteDeployment(ctx: HandlerContext, accountId: string, blueprintId: string): Promise<string> {
  const id = newId('site_');
  await ctx.db('account_sites').insert({ id, account_id: accountId, blueprint_id: blueprintId, status: 'queued' });
  await ctx.addJob(DEPLOY_BLUEPRINT, { site_id: id }, { jobKey: `${DEPLOY_BLUEPRINT}:${id}` });
  return id;
}

/** Deploys a queued site. Idempotent: a retried or duplicate job finds the site already deployed and does nothing. */
export function deployBlueprint(db: Knex): Task {
  return async (payload) => {
    const siteId = (payload as { site_id?: unknown })?.site_id;
    if (typeof siteId !== 'string') throw new Error('deploy_blueprint needs a site_id');
    await db('account_sites').where({ id: siteId, status: 'queued' })
      .update({ status: 'deployed', deployed_at: db.fn.now(), updated_at: db.fn.now() });
  };
}
