import type { Handler } from '../../generated/handler.js';
import { findManageableClock } from './find-clock.js';
import { advanceClockTo } from './clock-service.js';

/** POST /sandbox/clocks/{id}/advance: the clock starts moving to frozen_time; the worker runs what falls due. */
export const advanceClock: Handler<'advanceClock'> = async ({ path, body }, ctx) =>
  advanceClockTo(ctx.db, await findManageableClock(ctx, path.id), body.frozen_time);
