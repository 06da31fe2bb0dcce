// The platform's notices of deprecated usage (topic deprecated_usage, migrations/625 and 645): each account in a
// deprecation report (handlers/api_logs/deprecated-usage.ts) is told once per subject and window which deprecated
// operation its keys still call, or which deprecated field its keys or webhook subscriptions still use, and what
// replaces it. Every notice is recorded (deprecation_notices, by subject: an operation id or a field such as
// Webhook.api_version), even for an account without active team members, so that the evidence a sunset needs
// (generator/sunset-evidence.ts) can count it as given.
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';

interface AccountUsage {
  account_id: string; title: string | null; calls: number; last_used_at: string; api_keys: { api_key_id: string | null; operations?: string[] }[];
}

/** What a notice needs of a deprecation report (handlers/api_logs/deprecated-usage.ts's DeprecationReport has it). */
interface DeprecationReport {
  window_days: number;
  since: string;
  operations: { operation: string; method: string; path: string; successor: string | null; accounts: AccountUsage[] }[];
  fields: {
    field: string; successor: string | null; accounts: AccountUsage[];
    subscriptions: { webhook_id: string; account_id: string; title: string | null; deliveries: number; last_delivered_at: string; event_types: string[] }[];
  }[];
}

const TOPIC = { id: 'ntop_deprecatedusage', identifier: 'deprecated_usage', name: 'Deprecated API usage' };

export type NoticeSent =
  | { account_id: string; operation: string; successor: string | null; calls: number; recipients: number }
  | { account_id: string; field: string; successor: string | null; calls: number; deliveries: number; recipients: number };

/** One notice a report calls for: to whom, about what, and what it says. */
interface Due {
  kind: 'operation' | 'field';
  subject: string;
  successor: string | null;
  account_id: string;
  calls: number;
  deliveries: number;
  content: string;
  rest_path: string | null;
  data: Record<string, unknown>;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const keysOf = (account: AccountUsage) => account.api_keys.map((k) => k.api_key_id ?? 'a user token').join(', ');

/** Per subject, the accounts the report names as its users, each with what its notice says. */
function dueNotices(report: DeprecationReport): Due[] {
  const due: Due[] = [];
  for (const op of report.operations) {
    for (const account of op.accounts) {
      const content = `${account.title ?? account.account_id} still calls ${op.method} ${op.path} (${op.operation}), which is deprecated: `
        + `${plural(account.calls, 'call')} in the last ${report.window_days} days, the last at ${account.last_used_at}, by ${keysOf(account)}. `
        + (op.successor ? `Use ${op.successor} instead.` : 'It has no successor.');
      due.push({ kind: 'operation', subject: op.operation, successor: op.successor, account_id: account.account_id, calls: account.calls,
        deliveries: 0, content, rest_path: op.successor,
        data: { object: 'deprecated_operation', operation: op.operation, method: op.method, path: op.path, successor: op.successor, account_id: account.account_id } });
    }
  }
  for (const f of report.fields) {
    const users = [...new Set([...f.accounts.map((a) => a.account_id), ...f.subscriptions.map((s) => s.account_id)])].sort();
    for (const accountId of users) {
      const account = f.accounts.find((a) => a.account_id === accountId);
      const subscriptions = f.subscriptions.filter((s) => s.account_id === accountId);
      const title = account?.title ?? subscriptions[0]?.title ?? accountId;
      const deliveries = subscriptions.reduce((n, s) => n + s.deliveries, 0);
      const uses: string[] = [];
      if (account) {
        const operations = [...new Set(account.api_keys.flatMap((k) => k.operations ?? []))].sort();
        uses.push(`${plural(account.calls, 'call')} of operations carrying it (${operations.join(', ')}), the last at ${account.last_used_at}, by ${keysOf(account)}`);
      }
      if (subscriptions.length) {
        const events = [...new Set(subscriptions.flatMap((s) => s.event_types))].sort();
        uses.push(`${deliveries} webhook deliver${deliveries === 1 ? 'y' : 'ies'} of events carrying it (${events.join(', ')}) to ${subscriptions.map((s) => s.webhook_id).join(', ')}`);
      }
      const content = `${title} still uses the field ${f.field}, which is deprecated: ${uses.join('; ')} in the last ${report.window_days} days. `
        + (f.successor ? `Use ${f.successor} instead.` : 'It has no successor.');
      due.push({ kind: 'field', subject: f.field, successor: f.successor, account_id: accountId, calls: account?.calls ?? 0, deliveries,
        content, rest_path: null,
        data: { object: 'deprecated_field', field: f.field, successor: f.successor, account_id: accountId,
          webhook_ids: subscriptions.map((s) => s.webhook_id) } });
    }
  }
  return due;
}

/** Sends the notices the report calls for that were not already sent in its window; returns those sent. */
export async function sendDeprecationNotices(db: Knex, report: DeprecationReport): Promise<NoticeSent[]> {
  return db.transaction(async (trx) => {
    // One sender at a time: two runs at once would each see no notice yet and both send.
    await trx.raw("select pg_advisory_xact_lock(hashtext('deprecation_notices'))");
    const sent: NoticeSent[] = [];
    for (const notice of dueNotices(report)) {
      const already = await trx('deprecation_notices').where({ account_id: notice.account_id, subject: notice.subject })
        .where('sent_at', '>=', report.since).first('id');
      if (already) continue;
      const team = (await trx('team_members as m').where({ 'm.account_id': notice.account_id, 'm.status': 'active' })
        .whereNotExists((q) => q.from('notification_preferences as p').whereRaw('p.user_id = m.user_id')
          .where({ 'p.topic_id': TOPIC.id, 'p.enabled': false }))
        .distinct('m.user_id')).map((m: { user_id: string }) => m.user_id);
      if (team.length) {
        await trx('notifications').insert(team.map((userId) => ({
          id: newId('ntf_'), user_id: userId, account_id: notice.account_id, type: TOPIC.identifier, title: TOPIC.name,
          content: notice.content, rest_path: notice.rest_path, data: notice.data,
        })));
      }
      await trx('deprecation_notices').insert({ id: newId('dntc_'), account_id: notice.account_id, kind: notice.kind, subject: notice.subject,
        successor: notice.successor, calls: notice.calls, deliveries: notice.deliveries, recipients: team.length });
      const { account_id: accountId, successor, calls, deliveries } = notice;
      sent.push(notice.kind === 'operation'
        ? { account_id: accountId, operation: notice.subject, successor, calls, recipients: team.length }
        : { account_id: accountId, field: notice.subject, successor, calls, deliveries, recipients: team.length });
    }
    return sent;
  });
}

type Evidence = Record<string, { users: number; noticed_at: string | null }>;

/** Per operation and per field of the report: its users' count, and when the last of them was noticed (null while
 * one is not). */
export async function noticeEvidence(db: Knex, report: DeprecationReport): Promise<{ operations: Evidence; fields: Evidence }> {
  const due = dueNotices(report);
  const evidenceOf = async (kind: Due['kind'], subjects: string[]): Promise<Evidence> => {
    const evidence: Evidence = {};
    for (const subject of subjects) {
      const users = [...new Set(due.filter((d) => d.kind === kind && d.subject === subject).map((d) => d.account_id))];
      let noticedAt: string | null = null;
      for (const accountId of users) {
        const last = await db('deprecation_notices').where({ account_id: accountId, subject }).max('sent_at as at').first();
        if (!last?.at) { noticedAt = null; break; }
        const at = new Date(last.at).toISOString();
        if (!noticedAt || at > noticedAt) noticedAt = at;
      }
      evidence[subject] = { users: users.length, noticed_at: users.length ? noticedAt : null };
    }
    return evidence;
  };
  return {
    operations: await evidenceOf('operation', report.operations.map((op) => op.operation)),
    fields: await evidenceOf('field', report.fields.map((f) => f.field)),
  };
}
