// The generate_ei_recommendations job: for one account where Economic Intelligence is on, writes a ready
// recommendation for each rule (rules.ts) that holds and has none open, and supersedes the ready ones whose rule no
// longer holds. The account row is locked for the run, so two runs for one account take turns and the second finds
// nothing to do; the partial unique index (one open per kind) backs that up. Safe to rerun after a crash: the
// transaction either committed everything or nothing.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { newId } from '../../runtime/ids.js';
import { recordEvent } from '../../generated/events.js';
import { addJob } from '../../runtime/jobs.js';
import { transition } from '../../generated/state-machine.js';
import { resources } from '../../generated/resources.js';
import { RULES } from './rules.js';
import { nowMs } from '../shared/now.js';
import { accountNowSql } from '../shared/account-time.js';

export const GENERATE_TASK = 'generate_ei_recommendations';
export const SWEEP_TASK = 'sweep_ei_recommendations';

const on = (ts: string | Date | null, now: number) => ts !== null && new Date(ts).getTime() > now;

/** Queues a run for the account (one pending at a time). */
export async function queueRecommendations(db: Knex, accountId: string): Promise<void> {
  await addJob(db, GENERATE_TASK, { account_id: accountId }, { jobKey: `${GENERATE_TASK}:${accountId}` });
}

/** One run for one account; the ids written and superseded. */
export async function generateRecommendations(db: Knex, accountId: string, at?: number): Promise<{ created: string[]; superseded: string[] }> {
  return db.transaction(async (trx) => {
    // Whether it is on, by the account's time (a sandbox clock's when it runs on one: the hourly sweep runs at real time).
    const account = await trx('accounts').where({ id: accountId }).forUpdate()
      .first('id', 'economic_intelligence_ends_at', 'economic_intelligence_trial_ends_at', trx.raw(`${accountNowSql('accounts.id')} as account_now`));
    const created: string[] = [];
    const superseded: string[] = [];
    const now = at ?? Date.parse(account?.account_now);
    if (!account || !(on(account.economic_intelligence_ends_at, now) || on(account.economic_intelligence_trial_ends_at, now))) {
      return { created, superseded };
    }
    const open = await trx('economic_intelligence_recommendations').where({ account_id: accountId })
      .whereIn('status', ['ready', 'running']).select('id', 'kind', 'status');
    for (const [kind, rule] of Object.entries(RULES)) {
      const finding = await rule(trx, accountId);
      const mine = open.find((r) => r.kind === kind);
      if (finding && !mine) {
        const [row] = await trx('economic_intelligence_recommendations').insert({
          id: newId('eirec_'), account_id: accountId, kind, title: finding.title, summary: finding.summary,
          expected_tool_calls: JSON.stringify(finding.tools.map(([tool_name, description]) => ({ tool_name, description }))),
        }).returning('*');
        await recordEvent(trx, 'economic_intelligence_recommendation.created', accountId, resources.EconomicIntelligenceRecommendation.view(row));
        created.push(row.id);
      } else if (!finding && mine?.status === 'ready') {
        // A running one belongs to its caller, who ends it; only untouched advice goes stale.
        const [row] = await trx('economic_intelligence_recommendations').where({ id: mine.id })
          .update({ status: transition('EconomicIntelligenceRecommendation', mine.status, 'supersede'), updated_at: nowMs(trx) }).returning('*');
        await recordEvent(trx, 'economic_intelligence_recommendation.updated', accountId, resources.EconomicIntelligenceRecommendation.view(row));
        superseded.push(row.id);
      }
    }
    return { created, superseded };
  });
}

/** Hourly: queues a run for every account where Economic Intelligence is on (paid period or trial). The hour is a
 * refresh cadence, not a due time, so the sweep runs at real time for every account, and an account on a sandbox
 * clock is on or off by its clock's time (those accounts are few: accounts_clock). */
export async function sweepRecommendations(db: Knex, now = new Date()): Promise<number> {
  const at = now.toISOString();
  const { rows: ids }: { rows: { id: string }[] } = await db.raw(`
    select id from accounts where economic_intelligence_ends_at > ? and clock_id is null
    union select id from accounts where economic_intelligence_trial_ends_at > ? and clock_id is null
    union select a.id from accounts a join clocks c on c.id = a.clock_id and c.deleted_at is null
      where a.clock_id is not null and greatest(a.economic_intelligence_ends_at, a.economic_intelligence_trial_ends_at) > c.frozen_time`,
  [at, at]);
  for (const { id } of ids) await queueRecommendations(db, id);
  return ids.length;
}

export function economicIntelligenceTasks(db: Knex): Record<string, Task> {
  return {
    [GENERATE_TASK]: async (payload) => { await generateRecommendations(db, (payload as { account_id: string }).account_id); },
    [SWEEP_TASK]: async () => { await sweepRecommendations(db); },
  };
}
