import type { Handler } from '../../runtime/handler.js';
import { retrieveVariant } from './retrieveVariant.js';

/** The deprecated /plans route: the same implementation as retrieveVariant (the runtime adds Deprecation and Link). */
export const retrievePlan: Handler<'retrievePlan'> = (input, ctx) => retrieveVariant(input, ctx);
