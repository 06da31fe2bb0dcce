import type { Handler } from '../../generated/handler.js';
import { createVariant } from './createVariant.js';

/** The deprecated /plans route: the same implementation as createVariant (the runtime adds Deprecation and Link). */
export const createPlan: Handler<'createPlan'> = (input, ctx) => createVariant(input, ctx);
