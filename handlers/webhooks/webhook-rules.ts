// What a subscription's settings must satisfy beyond their shape.
import { randomBytes } from 'node:crypto';
import { invalid } from '../../runtime/errors.js';
import { parseVersionDate } from '../../runtime/versions.js';
import type { HandlerContext } from '../../generated/handler.js';
import type { UpdateHook } from '../../generated/plain-hooks.js';
import { destinationRefusal, type Refusal } from '../../runtime/outbound-request.js';
import { PRIVATE_DESTINATIONS_SETTING, webhookDestinationPolicy } from './destination-policy.js';
import { specData } from '../../generated/spec-data.js';

/** The event catalogue: every event the areas declare (the names a subscription's events may take), sorted. */
export const EVENT_CATALOGUE: readonly string[] = Object.keys(specData.events).sort();

// Plain http only reaches the subscriber's own machine, where local testing needs no certificate.
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The scheme rule, then where the url leads (destination-policy.ts): checked again before every delivery. */
export async function checkUrl(url: string): Promise<string> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && LOCAL_HOSTS.has(parsed.hostname))) {
    throw invalid('url must use https (http is accepted only for localhost, 127.0.0.1 and [::1])', 'url');
  }
  const refusal = await destinationRefusal(parsed, webhookDestinationPolicy());
  if (refusal) throw invalid(`url must lead to a public address: ${refusal.reason}, ${whyRefused(refusal)}`, 'url');
  return url;
}

/** The second half of a refusal's message: which rule refused it. */
export const whyRefused = (refusal: Refusal): string => (refusal.alwaysRefused
  ? 'where webhooks are never delivered'
  : `and this server delivers webhooks only to public addresses (${PRIVATE_DESTINATIONS_SETTING} is off)`);

/** At least one event (omitted: the whole catalogue); duplicates are dropped, the first occurrence keeps its place. */
export function checkEvents(events: readonly string[] = EVENT_CATALOGUE): string[] {
  if (events.length === 0) throw invalid('events must name at least one event, such as payment.succeeded', 'events');
  return [...new Set(events)];
}

/**
 * The older payload-format field (before 2026-08-07): every subscription made here uses the v1 events and
 * payloads, so v1 and null change nothing; v2 and v5 subscriptions cannot be created or switched to here.
 */
export function checkPayloadFormat(apiVersion: string | null | undefined): void {
  if (apiVersion === 'v2' || apiVersion === 'v5') {
    throw invalid(`api_version ${apiVersion} subscriptions cannot be created or switched to through /api/v1; `
      + 'send v1 (or leave api_version out): payloads follow api_version_date', 'api_version');
  }
}

/** The account a new subscription is for: the one named, else an API key's own (a user token must name one). */
export async function subscriptionAccount(ctx: HandlerContext, named: string | undefined): Promise<string> {
  if (named !== undefined) return named;
  const own = ctx.principal.kind === 'api_key' ? ctx.principal.accountId : null;
  if (!own) throw invalid('account_id is required with a user token: name the account to subscribe for', 'account_id');
  await ctx.access.require(own, ['webhook:manage'], 'account_id');
  return own;
}

/** The version in force on the given date, so a later release never moves the pin; null unpins. */
export function checkPin(value: string | null): string | null {
  return value === null ? null : parseVersionDate(value, 'api_version_date');
}

/** Standard Webhooks secret: whsec_ and the base64 of 24 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/**
 * PATCH /webhooks/{id} (plain update, spec/areas/webhooks.yaml): the sent settings, checked as on create, before they
 * are written. The older api_version input (pins before 2026-08-07) can move a v2 or v5 subscription to v1, never to
 * v2 or v5; a legacy subscription stays unpinned, its format fixing its payloads (migration 585 keeps it so).
 */
export const updateSettings: UpdateHook<'updateWebhook'> = async (webhook, body, ctx) => {
  checkPayloadFormat(body.api_version);
  if (body.enabled === true && !webhook.enabled) await reEnabled(ctx, webhook.id);
  const checked = { ...body };
  // null and v1 on a v1 subscription change nothing; v1 on a legacy one is written (payload_format).
  if (body.api_version === null || body.api_version === undefined) delete checked.api_version;
  const format = checked.api_version ?? webhook.payload_format;
  if (body.url !== undefined) checked.url = await checkUrl(body.url);
  if (body.events !== undefined) checked.events = checkEvents(body.events) as typeof body.events;
  if (body.api_version_date !== undefined) checked.api_version_date = checkPin(body.api_version_date);
  if (checked.api_version_date && format !== 'v1') {
    throw invalid(`api_version_date cannot pin this ${format} subscription: its ${format} format fixes its payloads `
      + '(data at the pre-versioning model); leave it unpinned', 'api_version_date');
  }
  return checked;
};

/** Turned back on: what the platform's disabling recorded is cleared, and its failures forgotten (the failing days
 * count again from the next failure; delivery/subscription-health.ts). */
async function reEnabled(ctx: HandlerContext, webhookId: string): Promise<void> {
  await ctx.db('webhooks').where({ id: webhookId }).update({ disabled_at: null, disabled_reason: null, failing_since: null });
}
