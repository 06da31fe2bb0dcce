// The disputes area's background tasks (the sandbox card network), registered by name in wiring/tasks.ts.
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { ALERT_WINDOW_END, closeUnanswered, DISPUTE_DEADLINE, endAlertWindow, fightDispute, reportOnPayment, ruleOnDispute } from './network.js';
import { NETWORK_REPORT } from './network-report.js';
import { DISPUTE_FIGHTER, DISPUTE_RULING } from './submit.js';

export function disputeTasks(db: Knex): TaskList {
  const by = (key: string, run: (db: Knex, id: string) => Promise<void>) =>
    async (payload: unknown) => { await run(db, (payload as Record<string, string>)[key]); };
  return {
    [NETWORK_REPORT]: by('payment_id', reportOnPayment),
    [ALERT_WINDOW_END]: by('alert_id', endAlertWindow),
    [DISPUTE_DEADLINE]: by('dispute_id', closeUnanswered),
    [DISPUTE_RULING]: by('dispute_id', ruleOnDispute),
    [DISPUTE_FIGHTER]: by('dispute_id', fightDispute),
  };
}
