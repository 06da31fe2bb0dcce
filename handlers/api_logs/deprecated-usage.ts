// Deprecation from evidence: per deprecated operation, the accounts (and their API keys) whose requests called it in
// the last `days` days, from the api logs; per deprecated field (generator/deprecated-fields.ts), the accounts whose
// keys called an operation whose request or response carries it at the version of the call, and the webhook
// subscriptions that were sent an event whose payload carries it at the version the delivery was rendered at. Read by
// the platform operator (npm run cli -- deprecations, bin/cli-deprecations.ts), which also notifies those accounts and
// records the evidence the generator reads before it accepts a `sunset:` (generator/sunset-evidence.ts).
// Bounded: one read of the api logs serves operations and fields, grouped by operation and version: only batches whose
// last request falls in the window are read (api_log_batches_last_at_brin, migrations/490), and a batch spans under
// a minute, so a week is read once. Deliveries are read per live subscription, those created in the window only,
// through webhook_deliveries_webhook_id_created_at_id_index (webhook_id, created_at, id; migrations/050), each one's
// event by events_pkey; no index is added. Test deliveries (POST /webhooks/{id}/test: sample data the receiver asked
// for) are not evidence.
import type { Knex } from 'knex';
import { UNNEST_LOGS } from './log-rows.js';
import type { DeprecatedField } from '../../runtime/deprecated-field.js';

export interface DeprecatedOperation {
  id: string;
  method: string;
  path: string;
  deprecated: { successor?: string; sunset?: string } | null;
}

export type { DeprecatedField };

/** The deprecated fields to report, with the spec's versions (newest first) that logged versions fall in. */
export interface FieldsToReport { fields: readonly DeprecatedField[]; versions: readonly string[] }

export interface KeyUsage {
  api_key_id: string | null; calls: number; last_used_at: string; api_versions: string[];
  /** fields only: the operations called that carried it */
  operations?: string[];
}
export interface AccountUsage { account_id: string; title: string | null; calls: number; last_used_at: string; api_keys: KeyUsage[] }
export interface OperationUsage {
  operation: string; method: string; path: string; successor: string | null; sunset: string | null; accounts: AccountUsage[];
}
export interface SubscriptionUsage {
  webhook_id: string; account_id: string; title: string | null; url: string; deliveries: number; last_delivered_at: string;
  api_versions: string[]; event_types: string[];
}
export interface FieldUsage {
  field: string; schema: string | null; operation: string | null; since: string; successor: string | null; sunset: string | null;
  accounts: AccountUsage[]; subscriptions: SubscriptionUsage[];
}
export interface DeprecationReport {
  object: 'deprecation_report'; window_days: number; since: string; until: string; operations: OperationUsage[]; fields: FieldUsage[];
}

interface CallRow {
  operation: string; api_version: string | null; account_id: string; title: string | null; api_key_id: string | null; calls: number; last_ms: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Adds a group of calls to an account's and key's usage (rows come ordered by account and key). */
function addCalls(accounts: AccountUsage[], row: CallRow, operation?: string): void {
  let account = accounts.find((a) => a.account_id === row.account_id);
  if (!account) accounts.push(account = { account_id: row.account_id, title: row.title, calls: 0, last_used_at: iso(0), api_keys: [] });
  const lastMs = Number(row.last_ms);
  account.calls += row.calls;
  if (lastMs > Date.parse(account.last_used_at)) account.last_used_at = iso(lastMs);
  let key = account.api_keys.find((k) => k.api_key_id === row.api_key_id);
  if (!key) account.api_keys.push(key = { api_key_id: row.api_key_id, calls: 0, last_used_at: iso(0), api_versions: [], ...(operation ? { operations: [] } : {}) });
  key.calls += row.calls;
  if (lastMs > Date.parse(key.last_used_at)) key.last_used_at = iso(lastMs);
  if (row.api_version && !key.api_versions.includes(row.api_version)) key.api_versions = [...key.api_versions, row.api_version].sort();
  if (operation && !key.operations!.includes(operation)) key.operations = [...key.operations!, operation].sort();
}

export async function deprecationReport(db: Knex, operations: readonly DeprecatedOperation[], days: number,
  fields: FieldsToReport = { fields: [], versions: [] }): Promise<DeprecationReport> {
  const deprecated = operations.filter((op) => op.deprecated).sort((a, b) => a.id.localeCompare(b.id));
  const deprecatedFields = [...fields.fields].sort((a, b) => a.id.localeCompare(b.id));
  // The version a logged or rendered date is served at: the newest version on or before it (versions: newest first).
  const versionOn = (date: string) => fields.versions.find((v) => v <= date) ?? null;
  // The database's clock, which stamped the logs (timestamps come back as text: runtime/db.ts's parsers).
  const [{ now_ms: nowMs }] = (await db.raw('select (extract(epoch from now()) * 1000)::bigint::text as now_ms')).rows as { now_ms: string }[];
  const now = new Date(Number(nowMs));
  const since = new Date(now.getTime() - days * 86_400_000);
  const called = [...new Set([...deprecated.map((op) => op.id), ...deprecatedFields.flatMap((f) => Object.keys(f.operations))])];
  const rows = called.length === 0 ? [] : (await db.raw(`
    select r.operation, r.api_version, b.account_id, a.title, r.api_key_id, count(*)::int as calls, max(r.at_ms)::bigint as last_ms
    from api_log_batches b ${UNNEST_LOGS}
    left join accounts a on a.id = b.account_id
    where b.last_at >= ? and b.account_id is not null and r.at_ms >= ? and r.operation = any(?)
    group by r.operation, r.api_version, b.account_id, a.title, r.api_key_id
    order by r.operation, b.account_id, r.api_key_id, r.api_version`, [since, since.getTime(), called])).rows as CallRow[];

  const report: OperationUsage[] = deprecated.map((op) => ({
    operation: op.id, method: op.method, path: op.path, successor: op.deprecated!.successor ?? null, sunset: op.deprecated!.sunset ?? null, accounts: [],
  }));
  const byId = new Map(report.map((u) => [u.operation, u]));
  for (const row of rows) {
    const usage = byId.get(row.operation);
    if (usage) addCalls(usage.accounts, row);
  }

  const fieldReport: FieldUsage[] = deprecatedFields.map((f) => ({
    field: f.id, schema: f.schema, operation: f.operation, since: f.since, successor: f.successor, sunset: f.sunset, accounts: [], subscriptions: [],
  }));
  deprecatedFields.forEach((f, i) => {
    for (const row of rows) {
      const version = row.api_version && versionOn(row.api_version);
      if (version && f.operations[row.operation]?.includes(version)) addCalls(fieldReport[i].accounts, row, row.operation);
    }
    fieldReport[i].accounts.sort((a, b) => a.account_id.localeCompare(b.account_id));
  });

  const eventTypes = [...new Set(deprecatedFields.flatMap((f) => Object.keys(f.events)))];
  if (eventTypes.length) {
    // Unpinned and v2/v5 subscriptions are rendered at the earliest version (handlers/webhooks/delivery/envelope.ts).
    const earliest = fields.versions[fields.versions.length - 1];
    const sent = (await db.raw(`
      select w.id as webhook_id, w.account_id, a.title, w.url, e.type as event_type,
        coalesce(d.api_version_date, w.api_version_date)::text as rendered, count(*)::int as deliveries,
        (extract(epoch from max(d.created_at)) * 1000)::bigint::text as last_ms
      from webhooks w
      cross join lateral (select d.event_id, d.api_version_date, d.created_at from webhook_deliveries d
        where d.webhook_id = w.id and d.created_at >= ? and not d.test) d
      join events e on e.id = d.event_id
      left join accounts a on a.id = w.account_id
      where w.deleted_at is null and e.type = any(?)
      group by w.id, w.account_id, a.title, w.url, e.type, rendered
      order by w.account_id, w.id`, [since, eventTypes])).rows as {
      webhook_id: string; account_id: string; title: string | null; url: string; event_type: string; rendered: string | null; deliveries: number; last_ms: string;
    }[];
    deprecatedFields.forEach((f, i) => {
      for (const row of sent) {
        const version = versionOn(row.rendered ?? earliest);
        if (!version || !f.events[row.event_type]?.includes(version)) continue;
        const subs = fieldReport[i].subscriptions;
        let sub = subs.find((s) => s.webhook_id === row.webhook_id);
        if (!sub) {
          subs.push(sub = { webhook_id: row.webhook_id, account_id: row.account_id, title: row.title, url: row.url, deliveries: 0,
            last_delivered_at: iso(0), api_versions: [], event_types: [] });
        }
        sub.deliveries += row.deliveries;
        if (Number(row.last_ms) > Date.parse(sub.last_delivered_at)) sub.last_delivered_at = iso(Number(row.last_ms));
        if (!sub.api_versions.includes(version)) sub.api_versions = [...sub.api_versions, version].sort();
        if (!sub.event_types.includes(row.event_type)) sub.event_types = [...sub.event_types, row.event_type].sort();
      }
    });
  }
  return { object: 'deprecation_report', window_days: days, since: since.toISOString(), until: now.toISOString(), operations: report, fields: fieldReport };
}

