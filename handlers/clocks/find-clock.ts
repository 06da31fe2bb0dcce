import type { HandlerContext } from '../../generated/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import type { ClockRow } from '../../generated/rows.js';

/** A clock the caller may manage, locked for the request's transaction. */
export const findManageableClock = (ctx: HandlerContext, id: string): Promise<ClockRow> =>
  loadOwned(ctx, resources.Clock, id, ['sandbox_clock:manage'], { read: 'lock' });
