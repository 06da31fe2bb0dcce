// Each subscription's deliveries run in a graphile-worker queue of its own: one at a time, in run_at order (a first
// attempt's run_at is its event's time, dispatch-event-task.ts), so a receiver sees its events in order and a slow or
// hanging one holds at most one worker slot, while other subscriptions' deliveries run beside it. Every job that
// sends a delivery (its first attempt, a retry, the sweep's, a resend) names the queue.
export const deliveryQueue = (webhookId: string) => `webhook:${webhookId}`;
