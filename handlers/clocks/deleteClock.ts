// Written by hand, not declared plain: the clock's soft delete is dated by the wall's time (pg_catalog.now(), clock-service.ts), while a plain delete dates deleted_at and updated_at by now(), the clock's own time for its account's requests.
import type { Handler } from '../../generated/handler.js';
import { findManageableClock } from './find-clock.js';
import { removeClock } from './clock-service.js';

/** DELETE /sandbox/clocks/{id}: its accounts return to real time. */
export const deleteClock: Handler<'deleteClock'> = async ({ path }, ctx) => {
  const clock = await findManageableClock(ctx, path.id);
  await removeClock(ctx.db, clock);
  return { id: clock.id, deleted: true };
};
