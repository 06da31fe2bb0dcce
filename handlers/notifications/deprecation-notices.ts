// The platform's notices of deprecated usage (topic deprecated_usage, migrations/625): each account in a deprecation
// report (handlers/api_logs/deprecated-usage.ts) is told once per operation and window which deprecated operation its
// keys still call and what replaces it. Every notice is recorded (deprecation_notices), even for an account without
// active team members, so that the evidence a sunset needs (generator/sunset-evidence.ts) can count it as given.
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';

/** What a notice needs of a deprecation report (handlers/api_logs/deprecated-usage.ts's DeprecationReport has it). */
interface DeprecationReport {
  window_days: number;
  since: string;
  operations: {
    operation: string; method: string; path: string; successor: string | null;
    accounts: { account_id: string; title: string | null; calls: number; last_used_at: string; api_keys: { api_key_id: string | null }[] }[];
  }[];
}

const TOPIC = { id: 'ntop_deprecatedusage', identifier: 'deprecated_usage', name: 'Deprecated API usage' };

export interface NoticeSent { account_id: string; operation: string; successor: string | null; calls: number; recipients: number }

/** Sends the notices the report calls for that were not already sent in its window; returns those sent. */
export async function sendDeprecationNotices(db: Knex, report: DeprecationReport): Promise<NoticeSent[]> {
  return db.transaction(async (trx) => {
    // One sender at a time: two runs at once would each see no notice yet and both send.
    await trx.raw("select pg_advisory_xact_lock(hashtext('deprecation_notices'))");
    const sent: NoticeSent[] = [];
    for (const op of report.operations) {
      for (const account of op.accounts) {
        const already = await trx('deprecation_notices').where({ account_id: account.account_id, operation: op.operation })
          .where('sent_at', '>=', report.since).first('id');
        if (already) continue;
        const team = (await trx('team_members as m').where({ 'm.account_id': account.account_id, 'm.status': 'active' })
          .whereNotExists((q) => q.from('notification_preferences as p').whereRaw('p.user_id = m.user_id')
            .where({ 'p.topic_id': TOPIC.id, 'p.enabled': false }))
          .distinct('m.user_id')).map((m: { user_id: string }) => m.user_id);
        const keys = account.api_keys.map((k) => k.api_key_id ?? 'a user token').join(', ');
        const content = `${account.title ?? account.account_id} still calls ${op.method} ${op.path} (${op.operation}), which is deprecated: `
          + `${account.calls} call${account.calls === 1 ? '' : 's'} in the last ${report.window_days} days, the last at ${account.last_used_at}, by ${keys}. `
          + (op.successor ? `Use ${op.successor} instead.` : 'It has no successor.');
        if (team.length) {
          await trx('notifications').insert(team.map((userId) => ({
            id: newId('ntf_'), user_id: userId, account_id: account.account_id, type: TOPIC.identifier, title: TOPIC.name, content,
            rest_path: op.successor,
            data: { object: 'deprecated_operation', operation: op.operation, method: op.method, path: op.path, successor: op.successor, account_id: account.account_id },
          })));
        }
        await trx('deprecation_notices').insert({ id: newId('dntc_'), account_id: account.account_id, operation: op.operation,
          successor: op.successor, calls: account.calls, recipients: team.length });
        sent.push({ account_id: account.account_id, operation: op.operation, successor: op.successor, calls: account.calls, recipients: team.length });
      }
    }
    return sent;
  });
}

/** Per operation of the report: its users' count, and when the last of them was noticed (null while one is not). */
export async function noticeEvidence(db: Knex, report: DeprecationReport): Promise<Record<string, { users: number; noticed_at: string | null }>> {
  const evidence: Record<string, { users: number; noticed_at: string | null }> = {};
  for (const op of report.operations) {
    let noticedAt: string | null = null;
    for (const account of op.accounts) {
      const last = await db('deprecation_notices').where({ account_id: account.account_id, operation: op.operation }).max('sent_at as at').first();
      if (!last?.at) { noticedAt = null; break; }
      const at = new Date(last.at).toISOString();
      if (!noticedAt || at > noticedAt) noticedAt = at;
    }
    evidence[op.operation] = { users: op.accounts.length, noticed_at: op.accounts.length ? noticedAt : null };
  }
  return evidence;
}
