import type { Handler } from '../../generated/handler.js';
import { statSeries } from './series.js';

/** GET /stats/{metric}: the deprecated path of GET /stats/time_series/{metric} (changelog entry 10), the same code. */
export const retrieveStat: Handler<'retrieveStat'> = async ({ path, query }, ctx) => ({ data: await statSeries(ctx.db, path.metric, query) });
