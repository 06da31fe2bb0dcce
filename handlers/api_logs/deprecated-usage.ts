// Deprecation from evidence: per deprecated operation, the accounts (and their API keys) whose requests called it in
// the last `days` days, from the api logs. Read by the platform operator (npm run cli -- deprecations,
// bin/cli-deprecations.ts), which also notifies those accounts and records the evidence the generator reads before
// it accepts a `sunset:` (generator/sunset-evidence.ts). Bounded: only batches whose last request falls in the window
// are read (api_log_batches_last_at_brin, migrations/490), and a batch spans under a minute, so a week is read once.
// Webhook deliveries are not counted: a deprecation in this spec is an operation's route, which deliveries never use.
import type { Knex } from 'knex';
import { UNNEST_LOGS } from './log-rows.js';

export interface DeprecatedOperation {
  id: string;
  method: string;
  path: string;
  deprecated: { successor?: string; sunset?: string } | null;
}

export interface KeyUsage { api_key_id: string | null; calls: number; last_used_at: string; api_versions: string[] }
export interface AccountUsage { account_id: string; title: string | null; calls: number; last_used_at: string; api_keys: KeyUsage[] }
export interface OperationUsage {
  operation: string; method: string; path: string; successor: string | null; sunset: string | null; accounts: AccountUsage[];
}
export interface DeprecationReport { object: 'deprecation_report'; window_days: number; since: string; until: string; operations: OperationUsage[] }

export async function deprecationReport(db: Knex, operations: readonly DeprecatedOperation[], days: number): Promise<DeprecationReport> {
  const deprecated = operations.filter((op) => op.deprecated).sort((a, b) => a.id.localeCompare(b.id));
  // The database's clock, which stamped the logs (timestamps come back as text: runtime/db.ts's parsers).
  const [{ now_ms: nowMs }] = (await db.raw('select (extract(epoch from now()) * 1000)::bigint::text as now_ms')).rows as { now_ms: string }[];
  const now = new Date(Number(nowMs));
  const since = new Date(now.getTime() - days * 86_400_000);
  const rows = deprecated.length === 0 ? [] : (await db.raw(`
    select r.operation, b.account_id, a.title, r.api_key_id, count(*)::int as calls, max(r.at_ms)::bigint as last_ms,
      array_remove(array_agg(distinct r.api_version), null) as api_versions
    from api_log_batches b ${UNNEST_LOGS}
    left join accounts a on a.id = b.account_id
    where b.last_at >= ? and b.account_id is not null and r.at_ms >= ? and r.operation = any(?)
    group by r.operation, b.account_id, a.title, r.api_key_id
    order by r.operation, b.account_id, r.api_key_id`, [since, since.getTime(), deprecated.map((op) => op.id)])).rows as {
    operation: string; account_id: string; title: string | null; api_key_id: string | null; calls: number; last_ms: string; api_versions: string[];
  }[];
  const iso = (ms: number) => new Date(ms).toISOString();
  const report: OperationUsage[] = deprecated.map((op) => ({
    operation: op.id, method: op.method, path: op.path, successor: op.deprecated!.successor ?? null, sunset: op.deprecated!.sunset ?? null, accounts: [],
  }));
  const byId = new Map(report.map((u) => [u.operation, u]));
  for (const row of rows) {
    const usage = byId.get(row.operation)!;
    let account = usage.accounts.find((a) => a.account_id === row.account_id);
    if (!account) usage.accounts.push(account = { account_id: row.account_id, title: row.title, calls: 0, last_used_at: iso(0), api_keys: [] });
    const lastMs = Number(row.last_ms);
    account.calls += row.calls;
    if (lastMs > Date.parse(account.last_used_at)) account.last_used_at = iso(lastMs);
    account.api_keys.push({ api_key_id: row.api_key_id, calls: row.calls, last_used_at: iso(lastMs), api_versions: row.api_versions.sort() });
  }
  return { object: 'deprecation_report', window_days: days, since: since.toISOString(), until: now.toISOString(), operations: report };
}
