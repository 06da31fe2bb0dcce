// The shadow replay: an API key's own recent reads re-run at the version it uses and at a target, and their answers
// compared (./answer-diff.ts), each difference with the changelog entry that caused it (runtime/docs/changelog.ts
// `crossing`). The reads come from the key's api logs (the path and query of each GET, migrations/640); each runs
// through the app's own request handling as the key, in a read-only transaction rolled back (runtime/replay.ts).
// Writes are never replayed: their request-side changes come from the versions' changes.
import type { Knex } from 'knex';
import { UNNEST_LOGS } from './log-rows.js';
import { compareAnswers, type AnswerDifference } from './answer-diff.js';
import { changelog, crossing, versionOn, type Change, type Diff } from '../../runtime/docs/changelog.js';
import { apiKeyPrincipal } from '../../runtime/auth.js';
import { replayRead, type ReplayAnswer } from '../../runtime/replay.js';
import { invalid } from '../../runtime/errors.js';
import type { ShadowReplay, ShadowReplayDifference, ShadowReplayOperation } from '../../generated/types.js';
import type { UpgradeChange } from './upgrade-assistant.js';

/** Each read runs twice; more than this many would make the answer slow (a sample of them says as much). */
export const MAX_REPLAYED_READS = 40;

/** The replay for a key row (id, api_version_date) at `target` (default the latest version). `db` must be a
 * request's own connection (runtime/request-db.ts withConnection): the replays run on it. */
export async function shadowReplay(db: Knex, key: { id: string; api_version_date?: string | Date | null }, target?: string): Promise<ShadowReplay & { object: 'shadow_replay' }> {
  const data = changelog();
  const oldest = data.versions[data.versions.length - 1].date;
  const to = target === undefined ? data.versions[0].date : versionOn(data, target);
  if (!to) throw invalid(`target must be a version date on or after ${oldest}`, 'target');
  const principal = await apiKeyPrincipal(db, key.id);
  if (!principal) throw invalid('The API key is revoked or expired: nothing can be replayed as it', 'id');
  const account = `b.account_id = (select account_id from api_keys where id = ?) and b.last_at > now() - interval '7 days'
    and r.api_key_id = ? and r.at_ms > (extract(epoch from now() - interval '7 days') * 1000)`;
  const reads: { operation: string; target: string; version: string | null }[] = (await db.raw(`select r.operation, r.target,
      max(r.api_version) as version
    from api_log_batches b ${UNNEST_LOGS}
    where ${account} and r.method = 'GET' and r.target is not null
    group by r.operation, r.target order by r.operation, r.target`, [key.id, key.id])).rows;
  const written: string[] = (await db.raw(`select distinct r.operation from api_log_batches b ${UNNEST_LOGS}
    where ${account} and r.method <> 'GET' order by r.operation`, [key.id, key.id])).rows.map((r: { operation: string }) => r.operation);
  const pin = principal.versionPin ?? reads.map((r) => r.version).filter((v): v is string => !!v).sort().pop() ?? data.versions[0].date;
  const from = versionOn(data, pin) ?? oldest;
  const diff = crossing(data, from, to);
  const sample = evenSample(reads, MAX_REPLAYED_READS);
  const byOperation = new Map<string, ShadowReplayOperation>();
  for (const read of sample) {
    const result = byOperation.get(read.operation)
      ?? { operation: read.operation, requests: 0, differences: [], unreadable: [] };
    byOperation.set(read.operation, result);
    result.requests++;
    const before = await replayRead(db, principal, from, read.target);
    if (before.status === 403 || before.status === 404 || before.status === 410) {
      result.unreadable.push({ path: read.target, status: before.status, message: errorMessage(before) });
      continue;
    }
    const after = from < to ? await replayRead(db, principal, to, atTarget(read.target, diff.operations[read.operation]?.changes ?? []))
      : await replayRead(db, principal, to, read.target);
    for (const d of differencesOf(read.operation, before, after, diff)) {
      if (!result.differences.some((e) => e.kind === d.kind && e.path === d.path)) result.differences.push(d);
    }
  }
  return {
    object: 'shadow_replay', api_key_id: key.id, from, to, requests_logged: reads.length, requests_replayed: sample.length,
    sampled: sample.length < reads.length, operations: [...byOperation.values()],
    writes: written.map((operation) => ({ operation, request_changes: requestChanges(operation, diff) })),
  };
}

/** At most `max` of `rows`, spread evenly over them (they are ordered by operation, so every operation keeps some). */
function evenSample<T>(rows: T[], max: number): T[] {
  if (rows.length <= max) return rows;
  return Array.from({ length: max }, (_, i) => rows[Math.floor((i * rows.length) / max)]);
}

const errorMessage = (answer: ReplayAnswer) =>
  (answer.body as { error?: { message?: string } } | null)?.error?.message ?? `answered ${answer.status}`;

/** The read as the target version names it: query parameters renamed since, and a path that moved. */
function atTarget(target: string, changes: Change[]): string {
  const [path, queryText = ''] = target.split('?', 2);
  const query = new URLSearchParams(queryText);
  let moved = path;
  for (const c of changes) {
    if (c.kind === 'request_field_renamed' && c.in === 'query' && c.field && typeof c.from === 'string' && query.has(c.from)) {
      for (const value of query.getAll(c.from)) query.append(c.field, value);
      query.delete(c.from);
    }
    if (c.kind === 'endpoint_moved' && typeof c.from === 'string' && typeof c.to === 'string') {
      const pattern = new RegExp(`^${c.from.replace(/\{\w+\}/g, '([^/]+)')}$`);
      const values = pattern.exec(moved)?.slice(1);
      if (values) moved = c.to.replace(/\{\w+\}/g, () => values.shift() ?? '');
    }
  }
  const text = query.toString();
  return text ? `${moved}?${text}` : moved;
}

/** The changes that could explain the operation's answers: its own and those of the resources it answers with. */
function changesOf(operation: string, diff: Diff): Change[] {
  return [...(diff.operations[operation]?.changes ?? []),
    ...Object.values(diff.resources).filter((g) => g.usedBy.includes(operation)).flatMap((g) => g.changes)];
}

const KINDS_EXPLAINING: Record<AnswerDifference['kind'], RegExp> = {
  added: /added|renamed|shown|moved/, removed: /removed|hidden|renamed|moved/, renamed: /renamed/,
  retyped: /money|type|format|decimal|object/, values_changed: /value|enum/,
};

function differencesOf(operation: string, before: ReplayAnswer, after: ReplayAnswer, diff: Diff): ShadowReplayDifference[] {
  const changes = changesOf(operation, diff);
  const entry = (c: Change | undefined) => (c ? { ref: c.ref, changelog: diff.changelog[c.ref]?.text ?? null } : { ref: null, changelog: null });
  if (before.status !== after.status) {
    const cause = changes.find((c) => c.kind === 'status_changed') ?? changes.find((c) => /^(endpoint|request)_/.test(c.kind));
    return [{ kind: 'status_changed', path: 'status', before: before.status, after: after.status, ...entry(cause) }];
  }
  if (before.status >= 400) return [];
  const renamed = new Map<string, string[]>();
  for (const c of changes) {
    if (c.kind === 'field_renamed' && c.field && typeof c.from === 'string') {
      const name = c.field.split('.').pop()!;
      renamed.set(name, [...(renamed.get(name) ?? []), c.from.split('.').pop()!]);
    }
  }
  const found: ShadowReplayDifference[] = [];
  for (const d of compareAnswers(before.body, after.body, renamed)) {
    const cause = causeOf(d, changes);
    // A value said differently that no change explains is the data's own (a time, a counter), not the version's.
    if (d.kind === 'values_changed' && !cause) continue;
    found.push({ kind: d.kind, path: d.path, before: d.before, after: d.after, ...entry(cause) });
  }
  return found;
}

/** The change a difference comes from: one naming its field (the path ends with it) of a kind that explains it;
 * else any naming its field. */
function causeOf(d: AnswerDifference, changes: Change[]): Change | undefined {
  const plain = d.path.replace(/\[\]/g, '');
  const names = (c: Change) => [c.field, d.kind === 'removed' && c.kind === 'field_renamed' && typeof c.from === 'string' ? c.from : null]
    .some((f) => f && (plain === f || plain.endsWith(`.${f}`)));
  const naming = changes.filter((c) => c.in !== 'body' && c.in !== 'query' && names(c));
  return naming.find((c) => KINDS_EXPLAINING[d.kind].test(c.kind) && (d.kind !== 'renamed' || c.from === d.oldName)) ?? naming[0];
}

/** The request-side changes (body and query) of an operation the key wrote to, in the upgrade assistant's shape. */
function requestChanges(operation: string, diff: Diff): UpgradeChange[] {
  return (diff.operations[operation]?.changes ?? []).filter((c) => c.in === 'body' || c.in === 'query' || c.kind.startsWith('request_'))
    .map((c) => {
      const e = diff.changelog[c.ref];
      return { ref: c.ref, version: e.version, entry: e.entry, changelog: e.text, breaking: c.breaking, kind: c.kind, resource: null,
        field: c.field, in: c.in, description: c.description, operations: [operation], migration: e.migration };
    });
}
