import type { Handler } from '../../runtime/handler.js';
import { listVariants } from './listVariants.js';

/** The deprecated /plans route: the same implementation as listVariants (the runtime adds Deprecation and Link). */
export const listPlans: Handler<'listPlans'> = (input, ctx) => listVariants(input, ctx);
