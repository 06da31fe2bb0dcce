// Written by hand, not declared plain: not a table's rows but the metric catalogue.
import type { Handler } from '../../generated/handler.js';
import { catalogue } from './catalogue.js';

/** GET /stats: the metric catalogue. */
export const listStats: Handler<'listStats'> = async () => ({ data: catalogue() });
