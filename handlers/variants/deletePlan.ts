import type { Handler } from '../../runtime/handler.js';
import { deleteVariant } from './deleteVariant.js';

/** The deprecated /plans route: the same implementation as deleteVariant (the runtime adds Deprecation and Link). */
export const deletePlan: Handler<'deletePlan'> = (input, ctx) => deleteVariant(input, ctx);
