// When a failed attempt is tried again: the schedule spec/api.yaml declares (webhook_delivery, emitted into
// spec-data), each wait varied by its jitter, and what the receiver's answer asks (Retry-After on 429 and 503).
import { createHash } from 'node:crypto';
import { specData } from '../../../generated/spec-data.js';

export const DELIVERY = specData.webhookDelivery;

/** The declared waits before each retry, in seconds (before jitter). */
export const RETRY_SCHEDULE_SECONDS: readonly number[] = DELIVERY.retryScheduleSeconds;

/**
 * The wait before retry `attempt` (1 after the first attempt failed), or null after the last. The jitter spreads the
 * retries of deliveries that failed together (a receiver back from an outage is not hit by all of them at once); it is
 * derived from the delivery and the attempt, so one delivery's retries fall at the same instants every time.
 */
export function retryDelaySeconds(deliveryId: string, attempt: number): number | null {
  const step = RETRY_SCHEDULE_SECONDS[attempt - 1];
  if (step === undefined) return null;
  const unit = createHash('sha256').update(`${deliveryId}:${attempt}`).digest().readUInt32BE(0) / 0xffffffff; // [0, 1]
  return Math.round(step * (1 + DELIVERY.jitter * (2 * unit - 1)));
}

/** What Retry-After asks, in seconds from `now`: delay-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now: Date): number | null {
  if (!header) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}

/**
 * A 429 or 503 whose Retry-After asks for longer than the schedule's wait is given what it asks, at most
 * retry_after_max_seconds: the receiver knows when it can take more. A shorter one keeps the schedule's wait (the
 * backoff is what protects a struggling receiver). Retry-After never adds an attempt.
 */
export function waitFor(scheduled: number, status: number | null, retryAfter: number | null): number {
  if ((status !== 429 && status !== 503) || retryAfter === null) return scheduled;
  return Math.max(scheduled, Math.min(retryAfter, DELIVERY.retryAfterMaxSeconds));
}
