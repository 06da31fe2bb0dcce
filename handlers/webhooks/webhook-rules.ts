// What a subscription's settings must satisfy beyond their shape.
import { randomBytes } from 'node:crypto';
import { invalid } from '../../runtime/errors.js';
import { parseVersionDate } from '../../runtime/versions.js';

// Plain http only reaches the subscriber's own machine, where local testing needs no certificate.
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function checkUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol === 'https:') return url;
  if (parsed.protocol === 'http:' && LOCAL_HOSTS.has(parsed.hostname)) return url;
  throw invalid('url must use https (http is accepted only for localhost, 127.0.0.1 and [::1])', 'url');
}

/** At least one event; duplicates are dropped, the first occurrence keeps its place. */
export function checkEvents(events: string[]): string[] {
  if (events.length === 0) throw invalid('events must name at least one event, such as payment.succeeded', 'events');
  return [...new Set(events)];
}

/** The version in force on the given date, so a later release never moves the pin; null unpins. */
export function checkPin(value: string | null): string | null {
  return value === null ? null : parseVersionDate(value, 'api_version_date');
}

/** Standard Webhooks secret: whsec_ and the base64 of 24 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
