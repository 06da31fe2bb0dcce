import type { Handler } from '../../generated/handler.js';
import { findManageableClock } from './find-clock.js';
import { removeClock } from './clock-service.js';

/** DELETE /sandbox/clocks/{id}: its accounts return to real time. */
export const deleteClock: Handler<'deleteClock'> = async ({ path }, ctx) => {
  const clock = await findManageableClock(ctx, path.id);
  await removeClock(ctx.db, clock);
  return { id: clock.id, deleted: true };
};
