// The sandbox card scheme (scheme.ts), served through the payments and disputes areas' ports, and its background
// tasks: its reports on settled payments and its rulings on evidence.
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { DISPUTE_RULING, NETWORK_REPORT, reportOnPayment, ruleOnDispute } from './scheme.js';

export { reportOnPayment, ruleOnDispute, sandboxDisputeScheme, sandboxSettlementScheme } from './scheme.js';

export function cardSchemeTasks(db: Knex): TaskList {
  const by = (key: string, run: (db: Knex, id: string) => Promise<void>) =>
    async (payload: unknown) => { await run(db, (payload as Record<string, string>)[key]); };
  return {
    [NETWORK_REPORT]: by('payment_id', reportOnPayment),
    [DISPUTE_RULING]: by('dispute_id', ruleOnDispute),
  };
}
