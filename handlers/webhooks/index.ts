// What the rest of the project uses of the webhooks area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by the wiring and the entry points
export { SWEEP_TASK } from './delivery/sweep-task.js';
export { webhookDeliveryTasks } from './delivery/tasks.js';
export { PRIVATE_DESTINATIONS_SETTING, webhookDestinationPolicy } from './destination-policy.js';
export { LEGACY_FORMATS, importLegacyWebhook } from './import-legacy-webhook.js';

// Used by tests and the bench
export { deliverWebhook } from './delivery/deliver-webhook-task.js';
export { RETRY_SCHEDULE_SECONDS, retryDelaySeconds } from './delivery/retry-schedule.js';
export { dispatchEvent } from './delivery/dispatch-event-task.js';
export { envelope, fillHiddenForPayload } from './delivery/envelope.js';
export { verify } from './delivery/signature.js';
export { sweepDeliveries } from './delivery/sweep-task.js';
