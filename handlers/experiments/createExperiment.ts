import type { CreateHook } from '../../generated/plain-hooks.js';
import { invalid } from '../../runtime/errors.js';

/** POST /experiments (plain create; the runtime has checked experiment:create on account_id): variants need two
 * distinct keys; the experiment starts running. */
export const createExperiment: CreateHook<'createExperiment'> = ({ variants: sent }) => {
  const variants = sent.map((v) => ({ key: v.key, weight: v.weight }));
  if (variants.length < 2) throw invalid('An experiment needs at least two variants', 'variants');
  const keys = new Set(variants.map((v) => v.key));
  if (keys.size !== variants.length) throw invalid('Variant keys must be unique within an experiment', 'variants');
  return { status: 'running', variants: JSON.stringify(variants) };
};
