import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { resources } from '../../generated/resources.js';

/** POST /experiments: the runtime has checked experiment:create on account_id; variants need two distinct keys. */
export const createExperiment: Handler<'createExperiment'> = async ({ body }, ctx) => {
  const variants = body.variants.map((v) => ({ key: v.key, weight: v.weight }));
  if (variants.length < 2) throw invalid('An experiment needs at least two variants', 'variants');
  const keys = new Set(variants.map((v) => v.key));
  if (keys.size !== variants.length) throw invalid('Variant keys must be unique within an experiment', 'variants');
  const [row] = await ctx.db('experiments').insert({
    id: newId('expt_'), account_id: body.account_id, name: body.name, description: body.description ?? null,
    status: 'running', variants: JSON.stringify(variants),
  }).returning('*');
  const view = resources.Experiment.view(row);
  await ctx.emit('experiment.created', body.account_id, view);
  return view;
};
