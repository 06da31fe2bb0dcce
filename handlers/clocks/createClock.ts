import type { Handler } from '../../generated/handler.js';
import { startClock } from './clock-service.js';

/** POST /sandbox/clocks: the account (with its connected accounts) runs on a new clock from frozen_time on. */
export const createClock: Handler<'createClock'> = ({ body }, ctx) =>
  startClock(ctx.db, body.account_id, body.frozen_time, body.name ?? null);
