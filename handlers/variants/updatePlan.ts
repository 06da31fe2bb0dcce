import type { Handler } from '../../generated/handler.js';
import { updateVariant } from './updateVariant.js';

/** The deprecated /plans route: the same implementation as updateVariant (the runtime adds Deprecation and Link). */
export const updatePlan: Handler<'updatePlan'> = (input, ctx) => updateVariant(input, ctx);
