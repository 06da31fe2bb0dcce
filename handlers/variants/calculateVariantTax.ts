import type { Handler } from '../../generated/handler.js';
import { calculateTax } from '../shared/tax.js';
import { loadVariant } from './load-variant.js';

/** POST /variants/{id}/calculate_tax (deprecated; and POST /plans/{id}/calculate_tax): tax on the initial price. */
export const calculateVariantTax: Handler<'calculateVariantTax'> = async ({ path, body }, ctx) => {
  const variant = await loadVariant(ctx, path.id, 'plan:basic:read');
  const tax = await calculateTax(ctx.db, { amount: Number(variant.initial_price), currency: variant.currency, country: body.country });
  return { plan_id: variant.id, ...tax };
};
