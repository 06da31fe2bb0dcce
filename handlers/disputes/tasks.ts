// The disputes area's background tasks (an alert's window, a dispute's deadline, the dispute fighter), registered by
// name in wiring/tasks.ts. The card scheme's own tasks (its reports and rulings) are its own (sandbox/card_scheme/).
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { ALERT_WINDOW_END, closeUnanswered, DISPUTE_DEADLINE, endAlertWindow, fightDispute } from './network.js';
import { DISPUTE_FIGHTER } from './submit.js';

export function disputeTasks(db: Knex): TaskList {
  const by = (key: string, run: (db: Knex, id: string) => Promise<void>) =>
    async (payload: unknown) => { await run(db, (payload as Record<string, string>)[key]); };
  return {
    [ALERT_WINDOW_END]: by('alert_id', endAlertWindow),
    [DISPUTE_DEADLINE]: by('dispute_id', closeUnanswered),
    [DISPUTE_FIGHTER]: by('dispute_id', fightDispute),
  };
}
