// A request made with the credential of an account on a sandbox clock runs at the clock's time (runtime/clock.ts):
// what it writes is dated by the clock, and the jobs it queues wait for the clock. Other requests pay nothing.
import type { Knex } from 'knex';
import { runOnClock } from './clock.js';
import { alignRequestConnection, query } from './request-db.js';

export function onCredentialClock<T>(db: Knex, clockId: string | null | undefined, work: () => Promise<T>): Promise<T> {
  // Most credentials have no clock: their work runs as it is, without a layer of its own.
  return clockId ? onClock(db, clockId, work) : work();
}

async function onClock<T>(db: Knex, clockId: string, work: () => Promise<T>): Promise<T> {
  const [clock] = await query<{ frozen_time: string }>(db, 'select frozen_time from clocks where id = $1 and deleted_at is null', [clockId]);
  if (!clock) return work();
  return runOnClock({ clockId, now: clock.frozen_time }, async () => {
    await alignRequestConnection(db);
    return work();
  });
}
