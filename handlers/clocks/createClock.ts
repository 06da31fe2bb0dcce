// Written by hand, not declared plain: moves the account and its connected accounts onto a new sandbox clock (clock-service.ts).
import type { Handler } from '../../generated/handler.js';
import { startClock } from './clock-service.js';

/** POST /sandbox/clocks: the account (with its connected accounts) runs on a new clock from frozen_time on. */
export const createClock: Handler<'createClock'> = ({ body }, ctx) =>
  startClock(ctx.db, body.account_id, body.frozen_time, body.name ?? null);
