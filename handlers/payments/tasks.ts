// The payments area's background tasks, registered by name in wiring/tasks.ts.
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { COLLECT_PAYMENT, collectPaymentTask } from './collection.js';
import { REFUND_PAYMENT, refundPaymentTask } from '../refunds/index.js';

export function paymentTasks(db: Knex): TaskList {
  return {
    [COLLECT_PAYMENT]: collectPaymentTask(db),
    [REFUND_PAYMENT]: refundPaymentTask(db),
  };
}
