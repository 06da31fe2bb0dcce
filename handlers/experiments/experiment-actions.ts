// The rules of the actions on one experiment (plain actions, spec/areas/experiments.yaml): the runtime finds and locks
// the experiment under the owner rules, runs the rule, and answers the experiment as it is then. Not a plain
// transition: Experiment declares no state machine, and its 400 says the experiment has already ended.
import type { ActionHook } from '../../generated/plain-hooks.js';
import { ApiError } from '../../runtime/errors.js';
import { nowMs } from '../shared/now.js';

/** end: running → ended with its findings; locked, so two concurrent ends settle to one. */
export const end: ActionHook<'endExperiment'> = async (experiment, { body }, ctx) => {
  if (experiment.status !== 'running') {
    throw new ApiError(400, 'invalid_state', `Experiment ${experiment.id} has already ended`, 'id');
  }
  await ctx.db('experiments').where({ id: experiment.id })
    .update({ status: 'ended', findings: body.findings, ended_at: nowMs(ctx.db), updated_at: nowMs(ctx.db) });
};
