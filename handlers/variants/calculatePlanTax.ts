import type { Handler } from '../../generated/handler.js';
import { calculateVariantTax } from './calculateVariantTax.js';

/** The deprecated /plans route: the same implementation as calculateVariantTax (the runtime adds Deprecation and Link). */
export const calculatePlanTax: Handler<'calculatePlanTax'> = (input, ctx) => calculateVariantTax(input, ctx);
