// Written by hand, not declared plain: it answers an evaluation computed from the experiment (an ExperimentEvaluation), not the experiment, and writes nothing.
import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { assignVariant, type Variant } from './assign.js';

const KINDS = [['account_id', 'account'], ['user_id', 'user'], ['anonymous_id', 'anonymous']] as const;

/** POST /experiments/{id}/evaluate: the subject's variant, computed (assign.ts); nothing is written. */
export const evaluateExperiment: Handler<'evaluateExperiment'> = async ({ path, body }, ctx) => {
  const row = await loadOwned(ctx, resources.Experiment, path.id, ['experiment:read']);
  const subject = body.subject as Record<string, string | undefined>;
  const given = KINDS.filter(([field]) => subject[field] !== undefined && subject[field] !== null);
  if (given.length !== 1) {
    throw invalid('subject must name exactly one of subject[account_id], subject[user_id] or subject[anonymous_id]', 'subject');
  }
  const [field, kind] = given[0]!;
  const subjectId = subject[field]!;
  return {
    object: 'experiment_evaluation' as const, experiment_id: row.id as string, subject_type: kind, subject_id: subjectId,
    variant: assignVariant(row.id as string, kind, subjectId, row.variants as Variant[]), status: row.status as 'running' | 'ended',
  };
};
