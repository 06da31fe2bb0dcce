// The time a subscription's deliveries are timed by: the sandbox clock its account runs on (runtime/clock.ts), or
// none (the wall's). Its retries then wait as the clock's timers, and its failures are counted in the clock's days.
import type { Knex } from 'knex';
import { currentClock, type ClockContext } from '../../../runtime/clock.js';

export async function subscriptionClock(db: Knex, accountId: string): Promise<ClockContext | undefined> {
  // A retry the advance runs is already on the clock, at the instant it fell due.
  const running = currentClock();
  if (running) return running;
  const clock = await db('accounts as a').join('clocks as c', 'c.id', 'a.clock_id').whereNull('c.deleted_at')
    .where('a.id', accountId).first('c.id', 'c.frozen_time');
  return clock ? { clockId: clock.id, now: new Date(clock.frozen_time).toISOString() } : undefined;
}
