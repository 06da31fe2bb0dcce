// CPU time of the bench's PostgreSQL, read from /proc (Linux; null elsewhere): what requests cost the database.
import { readdirSync, readFileSync } from 'node:fs';
import type { Knex } from 'knex';

// USER_HZ: 100 on every Linux this runs on.
const CLOCK_TICKS = 100;

/**
 * CPU time, in clock ticks, of each process of the bench's PostgreSQL: the postmaster (`postmaster`, an embedded
 * server's, from its data directory) and its children, so that other PostgreSQL servers on a shared machine (other
 * test suites) do not count. With no postmaster known (DATABASE_URL's server), every process named postgres counts.
 */
export function postgresCpuTicks(postmaster: string | null): Map<string, number> | null {
  try {
    const ticks = new Map<string, number>();
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // exited meanwhile
      }
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const fields = stat.slice(close + 2).split(' ');
      if (postmaster && pid !== postmaster && fields[1] !== postmaster) continue; // fields[1]: the parent's pid
      ticks.set(pid, Number(fields[11]) + Number(fields[12])); // utime and stime: fields 14 and 15 of proc(5)
    }
    return ticks;
  } catch {
    return null;
  }
}

/** µs of PostgreSQL CPU between two readings. A process that exits between the readings takes its share with it
 * (the pools keep their connections open during a run). */
export function postgresCpuBetween(before: Map<string, number> | null, after: Map<string, number> | null): number | null {
  if (!before || !after) return null;
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return (ticks * 1e6) / CLOCK_TICKS;
}

const QUIET_FOR_MS = 1000;
const QUIET_WAIT_LIMIT_MS = 120_000;

/** Waits until no other session of the server runs a statement and no autovacuum worker runs, for QUIET_FOR_MS in a
 * row (at most QUIET_WAIT_LIMIT_MS). */
export async function waitForQuietDatabase(db: Knex): Promise<{ ms: number; timedOut: boolean }> {
  const started = Date.now();
  let quietSince = started;
  let everBusy = false;
  for (;;) {
    const { rows } = await db.raw(`select count(*)::int as busy from pg_stat_activity
      where pid <> pg_backend_pid() and (state = 'active' or backend_type = 'autovacuum worker')`);
    const now = Date.now();
    if (rows[0].busy > 0) {
      quietSince = now;
      everBusy = true;
    } else if (now - quietSince >= QUIET_FOR_MS) {
      return { ms: everBusy ? now - started : 0, timedOut: false };
    }
    if (now - started >= QUIET_WAIT_LIMIT_MS) return { ms: now - started, timedOut: true };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
