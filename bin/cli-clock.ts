// `npm run cli -- clock`: a sandbox account's clock (handlers/clocks), from the command line. The advance itself is
// run by the server's background workers (`npm start` or `npm run worker`); --wait waits until they are done.
import type { Knex } from 'knex';
import { CliError } from './cli-commands.js';

type Values = Record<string, string | undefined>;

const DAY_MS = 86_400_000;

/** An instant: ISO 8601, or +N days / +N hours from `from`. */
export function instantOf(text: string, from: string, option: string): string {
  const relative = /^\+(\d+)(d|h)$/.exec(text);
  if (relative) return new Date(Date.parse(from) + Number(relative[1]) * (relative[2] === 'd' ? DAY_MS : 3_600_000)).toISOString();
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(text) || Number.isNaN(Date.parse(text))) {
    throw new CliError(`--${option} must be an ISO 8601 instant (2027-01-01T00:00:00Z) or +Nd / +Nh, not '${text}'`);
  }
  return new Date(text).toISOString();
}

async function clockOf(db: Knex, accountId: string, lock: boolean) {
  const account = await db('accounts').where({ id: accountId }).first('id', 'clock_id');
  if (!account) throw new CliError(`no account ${accountId}`);
  if (!account.clock_id) return null;
  const q = db('clocks').where({ id: account.clock_id });
  return lock ? q.forUpdate().first() : q.first();
}

async function waitUntilReady(db: Knex, clockId: string, timeoutMs: number) {
  const started = Date.now();
  for (;;) {
    const clock = await db('clocks').where({ id: clockId }).first();
    if (clock.status === 'ready') return clock;
    if (Date.now() - started > timeoutMs) {
      throw new CliError(`the clock ${clockId} is still advancing after ${timeoutMs / 1000} s: is a worker running (npm start or npm run worker)?`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function runClock(db: Knex, v: Values): Promise<Record<string, unknown>> {
  // Loaded once the command line is right, like the database drivers (bin/cli.ts).
  const { advanceClockTo, removeClock, startClock } = await import('../handlers/clocks/clock-service.js');
  const accountId = v.account!;
  if (v.start !== undefined) {
    const [{ wall }] = (await db.raw("select pg_catalog.now() as wall")).rows;
    const start = instantOf(v.start, new Date(wall).toISOString(), 'start');
    return { action: 'created', ...(await db.transaction((trx) => startClock(trx, accountId, start, v.name ?? null))) };
  }
  if (v.advance !== undefined) {
    const started = await db.transaction(async (trx) => {
      const clock = await clockOf(trx, accountId, true);
      if (!clock) throw new CliError(`the account ${accountId} runs on no clock; make one with --start`);
      return advanceClockTo(trx, clock, instantOf(v.advance!, new Date(clock.frozen_time).toISOString(), 'advance'));
    });
    if (v.wait === undefined) return { action: 'advancing', ...started };
    const ready = await waitUntilReady(db, started.id, Number(v.wait || 600) * 1000);
    return { action: 'advanced', id: ready.id, account_id: ready.account_id, frozen_time: ready.frozen_time, status: ready.status };
  }
  if (v.delete !== undefined) {
    return db.transaction(async (trx) => {
      const clock = await clockOf(trx, accountId, true);
      if (!clock) throw new CliError(`the account ${accountId} runs on no clock`);
      await removeClock(trx, clock);
      return { action: 'deleted', id: clock.id, account_id: accountId };
    });
  }
  const clock = await clockOf(db, accountId, false);
  if (!clock) throw new CliError(`the account ${accountId} runs on no clock; make one with --start`);
  return { action: 'shown', id: clock.id, account_id: clock.account_id, frozen_time: clock.frozen_time, status: clock.status, target_time: clock.target_time };
}

export function printClock(r: Record<string, any>): string[] {
  const at = `${r.id} of ${r.account_id}: ${r.frozen_time}`;
  switch (r.action) {
    case 'created': return [`Put ${r.account_id} (and its connected accounts) on the clock ${r.id}, standing at ${r.frozen_time}`];
    case 'advancing': return [`The clock ${r.id} is advancing to ${r.target_time}; the workers run what falls due (add --wait to wait)`];
    case 'advanced': return [`The clock ${at}, ready: everything due by then has run`];
    case 'deleted': return [`Deleted the clock ${r.id}: ${r.account_id} is back on real time`];
    default: return [`The clock ${at} (${r.status}${r.target_time ? ` to ${r.target_time}` : ''})`];
  }
}

export function checkClock(v: Values): void {
  const actions = ['start', 'advance', 'delete'].filter((a) => v[a] !== undefined);
  if (actions.length > 1) throw new CliError(`use one of --start, --advance, --delete (got ${actions.map((a) => `--${a}`).join(', ')})`);
  if (v.wait !== undefined && v.advance === undefined) throw new CliError('--wait goes with --advance');
  if (v.wait && !/^\d+$/.test(v.wait)) throw new CliError(`--wait takes seconds, not '${v.wait}'`);
}
