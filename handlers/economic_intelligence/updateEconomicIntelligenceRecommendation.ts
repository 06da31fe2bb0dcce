// Written by hand, not a plain transition: PATCH: several moves in a row, chosen by the body.
import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { loadOwned } from '../../runtime/ownership.js';
import { transition } from '../../generated/state-machine.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';

/** PATCH /economic_intelligence/{id}: one move of the recommendation's lifecycle (spec state_machines), locked so
 * two concurrent moves settle one after the other. */
export const updateEconomicIntelligenceRecommendation: Handler<'updateEconomicIntelligenceRecommendation'> = async ({ path, body }, ctx) => {
  const row = await loadOwned(ctx, resources.EconomicIntelligenceRecommendation, path.id, ['economic_intelligence:update'], { read: 'lock' });
  if (body.result_url !== undefined && body.status !== 'executed') throw invalid('result_url is taken only with status executed', 'result_url');
  const now = nowMs(ctx.db);
  const runBy = ctx.principal.kind === 'user_token' ? ctx.principal.userId : null;
  let status = row.status as string;
  const write: Record<string, unknown> = { updated_at: now };
  // Older pins had no running step: executed from ready starts and ends the run in this one request.
  if (body.status === 'executed' && status === 'ready' && !ctx.flag('economic_intelligence_run_statuses')) {
    status = transition('EconomicIntelligenceRecommendation', status, 'run');
    Object.assign(write, { run_started_at: now, run_by_user_id: runBy });
  }
  switch (body.status) {
    case 'running':
      status = transition('EconomicIntelligenceRecommendation', status, 'run');
      Object.assign(write, { run_started_at: now, run_by_user_id: runBy });
      break;
    case 'executed':
      status = transition('EconomicIntelligenceRecommendation', status, 'execute');
      Object.assign(write, { run_ended_at: now, ...(body.result_url !== undefined ? { result_url: body.result_url } : {}) });
      break;
    case 'incomplete':
      status = transition('EconomicIntelligenceRecommendation', status, 'mark_incomplete');
      Object.assign(write, { run_ended_at: now });
      break;
    case 'acknowledged':
      status = transition('EconomicIntelligenceRecommendation', status, 'acknowledge');
      // Acknowledging again keeps the first time it was seen.
      Object.assign(write, { acknowledged_at: ctx.db.raw('coalesce(acknowledged_at, ?)', [now]) });
      break;
  }
  const [updated] = await ctx.db('economic_intelligence_recommendations').where({ id: row.id })
    .update({ ...write, status }).returning('*');
  const view = resources.EconomicIntelligenceRecommendation.view(updated);
  await ctx.emit('economic_intelligence_recommendation.updated', row.account_id as string, view);
  return view;
};
