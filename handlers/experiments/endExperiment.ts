// Written by hand, not a plain transition: Experiment declares no state machine, and its 400 says the experiment has already ended.
import type { Handler } from '../../generated/handler.js';
import { ApiError } from '../../runtime/errors.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';

/** POST /experiments/{id}/end: running → ended with findings; locked, so two concurrent ends settle to one. */
export const endExperiment: Handler<'endExperiment'> = async ({ path, body }, ctx) => {
  const row = await loadOwned(ctx, resources.Experiment, path.id, ['experiment:update'], { forUpdate: true });
  if (row.status !== 'running') {
    throw new ApiError(400, 'invalid_state', `Experiment ${path.id} has already ended`, 'id');
  }
  const [updated] = await ctx.db('experiments').where({ id: path.id })
    .update({ status: 'ended', findings: body.findings, ended_at: nowMs(ctx.db), updated_at: nowMs(ctx.db) }).returning('*');
  const view = resources.Experiment.view(updated);
  await ctx.emit('experiment.ended', row.account_id as string, view);
  return view;
};
