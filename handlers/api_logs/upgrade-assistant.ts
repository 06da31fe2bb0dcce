// The upgrade assistant: what moving an API key to a target version changes for the requests it actually made.
// The changes come from generated/changelog.json (the generator's structured diffs, runtime/docs/changelog.ts
// `crossing`), never from generator/ at request time; the key's usage comes from its api logs.
import type { Knex } from 'knex';
import { UNNEST_LOGS } from './log-rows.js';
import { changelog, crossing, versionOn, type Change } from '../../runtime/docs/changelog.js';
import { invalid } from '../../runtime/errors.js';

export interface UpgradeChange {
  ref: string; version: string; entry: number | null; changelog: string; breaking: boolean; kind: string;
  resource: string | null; field: string | null; in: 'response' | 'body' | 'query' | null; description: string;
  operations: string[]; migration: string | null;
}

export interface UpgradeAssistant {
  object: 'upgrade_assistant';
  api_key_id: string; from: string; to: string; pins: string[]; operations_used: string[]; breaking: number;
  changes: UpgradeChange[]; migrations: string[];
}

/** The assistant for a key row (id, api_version_date) at `target` (default the latest version). */
export async function upgradeAssistant(db: Knex, key: { id: string; api_version_date?: string | Date | null }, target?: string): Promise<UpgradeAssistant> {
  const data = changelog();
  const oldest = data.versions[data.versions.length - 1].date;
  const to = target === undefined ? data.versions[0].date : versionOn(data, target);
  if (!to) throw invalid(`target must be a version date on or after ${oldest}`, 'target');
  // The key's requests are among its account's batches (migrations/490_api_log_batches.ts).
  const used: { operation: string; api_version: string | null }[] = (await db.raw(`select distinct r.operation, r.api_version
    from api_log_batches b ${UNNEST_LOGS}
    where b.account_id = (select account_id from api_keys where id = ?) and r.api_key_id = ?`, [key.id, key.id])).rows;
  const operations = [...new Set(used.map((u) => u.operation))].sort();
  const pinDates = [dateText(key.api_version_date) ?? oldest, ...used.map((u) => u.api_version).filter((v): v is string => !!v)];
  const pins = [...new Set(pinDates.map((d) => versionOn(data, d) ?? oldest))].sort();
  const from = pins[0];
  const result: UpgradeAssistant = {
    object: 'upgrade_assistant', api_key_id: key.id, from, to, pins, operations_used: operations, breaking: 0, changes: [], migrations: [],
  };
  if (from >= to || operations.length === 0) return result;
  const diff = crossing(data, from, to);
  const usedSet = new Set(operations);
  const add = (c: Change, resource: string | null, touched: string[]) => {
    const entry = diff.changelog[c.ref];
    result.changes.push({
      ref: c.ref, version: entry.version, entry: entry.entry, changelog: entry.text, breaking: c.breaking, kind: c.kind,
      resource, field: c.field, in: c.in, description: c.description, operations: touched, migration: entry.migration,
    });
  };
  for (const [name, group] of Object.entries(diff.operations)) {
    if (usedSet.has(name)) for (const c of group.changes) add(c, null, [name]);
  }
  for (const [name, group] of Object.entries(diff.resources)) {
    const touched = group.usedBy.filter((op) => usedSet.has(op)).sort();
    if (touched.length) for (const c of group.changes) add(c, name, touched);
  }
  // Breaking first, then by version and entry: the order a reader works through them.
  result.changes.sort((a, b) => Number(b.breaking) - Number(a.breaking) || a.ref.localeCompare(b.ref)
    || (a.resource ?? '').localeCompare(b.resource ?? '') || (a.field ?? '').localeCompare(b.field ?? ''));
  result.breaking = result.changes.filter((c) => c.breaking).length;
  const migrations = new Set(result.changes.map((c) => c.migration).filter((m): m is string => !!m));
  result.migrations = diff.migrations.map((m) => m.name).filter((m, i, all) => migrations.has(m) && all.indexOf(m) === i);
  return result;
}

/** A date column as YYYY-MM-DD: pg gives `date` values as a Date at local midnight. */
function dateText(value: string | Date | null | undefined): string | null {
  if (!value) return null;
  if (typeof value === 'string') return value.slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
}
