// Background tasks by name; each is business logic run by graphile-worker outside any request.
import './compose.js';
import type { TaskList } from 'graphile-worker';
import type { Knex } from 'knex';
import { ADVANCE_CLOCK, advanceClockTask, onClocks } from '../runtime/clock-advance.js';
import { clockSweeps } from './clock-sweeps.js';
import { clockReady } from '../handlers/clocks/index.js';
import { DEPLOY_BLUEPRINT, deployBlueprint } from '../handlers/accounts/index.js';
import { accountPreferencesTasks } from '../handlers/account_preferences/index.js';
import { adsTasks, DELIVER_ADS, deliverAdsTask } from '../handlers/ads/index.js';
import { membershipTasks, MEMBERSHIP_PERIOD_SWEEP } from '../handlers/memberships/index.js';
import { setupIntentTasks } from '../handlers/setup_intents/index.js';
import { webhookDeliveryTasks, SWEEP_TASK } from '../handlers/webhooks/index.js';
import { paymentTasks } from '../handlers/payments/index.js';
import { transferTasks } from '../handlers/transfers/index.js';
import { disputeTasks } from '../handlers/disputes/index.js';
import { CLEAR_DUE_FUNDS, clearDueFundsTask } from '../handlers/ledger/index.js';
import { paymentMethodDomainTasks } from '../handlers/payment_method_domains/index.js';
import { fileTasks } from '../handlers/files/index.js';
import { exportTasks, EXPIRE_EXPORTS } from '../handlers/exports/index.js';
import { verificationTasks } from '../handlers/verifications/index.js';
import { mediaTasks } from '../handlers/media/index.js';
import { COMPACT_TOTALS, compactTotalsTask } from '../handlers/shared/compact-totals.js';
import { PURGE_API_LOGS, purgeApiLogsTask } from '../handlers/api_logs/index.js';
import { resolutionCenterTasks } from '../handlers/resolution_center_cases/index.js';
import { reviewTasks } from '../handlers/reviews/index.js';
import { economicIntelligenceTasks, SWEEP_TASK as SWEEP_EI } from '../handlers/economic_intelligence/index.js';
import { externalAccountTasks } from '../handlers/external_accounts/index.js';
import { appBuildTasks } from '../handlers/apps/index.js';
import { audienceTasks } from '../handlers/audiences/index.js';
import { payoutRailTasks } from '../sandbox/payout_rail/index.js';
import { cardNetworkTasks } from '../sandbox/card_network/index.js';
import { cryptoNetworkTasks } from '../sandbox/crypto_network/index.js';
import { cardSchemeTasks } from '../sandbox/card_scheme/index.js';

/** Every task, each running at the time of the clock its job was queued on (runtime/clock-advance.ts), with the task
 * that advances sandbox clocks through the same tasks and this project's clock sweeps. */
export function taskList(db: Knex): TaskList {
  const tasks: TaskList = { ...businessTasks(db), ...moneySandboxTasks(db) };
  tasks[ADVANCE_CLOCK] = advanceClockTask(db, () => tasks, () => clockSweeps, clockReady);
  return onClocks(db, tasks);
}

function businessTasks(db: Knex): TaskList {
  return {
    [DEPLOY_BLUEPRINT]: deployBlueprint(db),
    ...accountPreferencesTasks(db),
    ...adsTasks(db),
    ...membershipTasks(db),
    ...setupIntentTasks(db),
    ...webhookDeliveryTasks(db),
    ...paymentTasks(db),
    [CLEAR_DUE_FUNDS]: clearDueFundsTask(db),
    ...transferTasks(db),
    ...disputeTasks(db),
    ...paymentMethodDomainTasks(db),
    ...fileTasks(db),
    ...verificationTasks(db),
    ...mediaTasks(db),
    ...exportTasks(db),
    [COMPACT_TOTALS]: compactTotalsTask(db),
    ...resolutionCenterTasks(db),
    [PURGE_API_LOGS]: purgeApiLogsTask(db),
    ...economicIntelligenceTasks(db),
    ...reviewTasks(db),
    [DELIVER_ADS]: deliverAdsTask(db),
    ...externalAccountTasks(db),
    ...appBuildTasks(db),
    ...audienceTasks(db),
  };
}

/** The simulated money systems' own steps (sandbox/): they report to the areas, which apply what they report. */
function moneySandboxTasks(db: Knex): TaskList {
  return { ...payoutRailTasks(db), ...cardNetworkTasks(db), ...cryptoNetworkTasks(db), ...cardSchemeTasks(db) };
}

/** Scheduled work, every minute: the webhook sweep, a safety net for deliveries whose job is gone, the clearing of
 * settled payments' funds, the memberships that fell due (renewals, dunning, ends) and the folding of totals tables'
 * new rows (stats, summaries); hourly, the retention of exports and of api logs, Economic Intelligence's recommendations for the accounts where it is on, and the simulated
 * ad network's delivery of the hour just ended. (Jobs of a worker that died need nothing here:
 * runtime/worker-liveness.ts releases them for every task.) */
export const schedule = {
  crontab: [`* * * * * ${SWEEP_TASK}`, `* * * * * ${CLEAR_DUE_FUNDS}`, `* * * * * ${COMPACT_TOTALS}`, `0 * * * * ${EXPIRE_EXPORTS}`,
    `30 * * * * ${PURGE_API_LOGS}`, `15 * * * * ${SWEEP_EI}`, `1 * * * * ${DELIVER_ADS}`,
    `* * * * * ${MEMBERSHIP_PERIOD_SWEEP}`],
  onStart: [],
};
