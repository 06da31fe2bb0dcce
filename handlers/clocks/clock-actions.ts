// The rules of the operations on one clock declared plain (spec/areas/clocks.yaml): the runtime finds and locks the
// clock with the sandbox_clock:manage rules, runs the rule, and answers the clock as it is then. The rules themselves
// are clock-service.ts's, which `npm run cli -- clock` shares.
import type { ActionHook } from '../../generated/plain-hooks.js';
import { advanceClockTo } from './clock-service.js';

/** POST /sandbox/clocks/{id}/advance: the clock starts moving to frozen_time (clock.advancing recorded); the worker
 * runs what falls due. */
export const advance: ActionHook<'advanceClock'> = async (clock, { body }, ctx) => {
  await advanceClockTo(ctx.db, clock, body.frozen_time);
};
