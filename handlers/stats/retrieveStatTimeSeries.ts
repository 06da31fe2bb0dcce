import type { Handler } from '../../generated/handler.js';
import { statSeries } from './series.js';

/** GET /stats/time_series/{metric}: a metric of an account over a window. The runtime has checked the account
 * (404 when invisible, 403 without stats:read). Written, not plain: a series summed over rollups, not a stored row. */
export const retrieveStatTimeSeries: Handler<'retrieveStatTimeSeries'> = async ({ path, query }, ctx) => ({
  data: await statSeries(ctx.db, path.metric, query),
});
