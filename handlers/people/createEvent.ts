// Written by hand, not declared plain: attributes the event to its person and payment, deduplicating by event_id.
import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { query } from '../../runtime/request-db.js';
import { minorUnits } from '../../runtime/decimal-money.js';
import { currencyDecimals } from '../../runtime/money.js';
import { parseInstant } from '../../runtime/instant.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { identify } from './identify.js';
import { eventUserId } from './event-user.js';
import { requireAccountsOwn } from './account-references.js';

// The event and its person's running profile in one statement, answering the event's view: the person is updated only
// when the event is new (a repeated event_id inserts nothing, so nothing moves).
export const INSERT_EVENT = `
  with e as (
    insert into tracked_events (id, account_id, person_id, event_id, event_name, custom_name, event_time, action_source,
      url, referrer_url, title, value, currency, payment_id, product_id, plan_id, context, duration_ms, resumed,
      identify_source, user_profile, member_id, membership_id)
    values ($1, $2, $3, coalesce($4, $1), $5, $6, coalesce($7::timestamptz, date_trunc('milliseconds', now())), $8,
      $9, $10, $11, $12, $13, $14, $15, $16, $17, $21, $22, $23, $24::jsonb, $26, $27)
    on conflict (account_id, event_id) do nothing
    returning *),
  p as (
    update people set event_count = event_count + 1, purchase_count = purchase_count + (e.payment_id is not null)::int,
      first_seen_at = least(first_seen_at, e.event_time), last_seen_at = greatest(last_seen_at, e.event_time),
      email = coalesce($18, people.email), name = coalesce($19, people.name), phone = coalesce($20, people.phone),
      profile = people.profile || $25::jsonb, updated_at = date_trunc('milliseconds', now())
    from e where people.id = e.person_id)
  select ${resources.TrackedEvent.columns} from e as tracked_events`; // the view's columns, read from the inserted row

/** POST /events: the event attributed to its person (identify.ts) and, with payment_id, to one of the account's
 * payments; event_id deduplicates (the stored event answers). */
export const createEvent: Handler<'createEvent'> = async ({ body }, ctx) => {
  const eventTime = body.event_time === undefined ? null : checkedTime(body.event_time);
  const currency = body.currency ?? 'usd';
  const value = body.value === undefined ? null : minorUnits(body.value, currencyDecimals(currency));
  if (value === null && body.value !== undefined) {
    throw invalid(`value must be an amount in ${currency.toUpperCase()} with at most ${currencyDecimals(currency)} decimal places`, 'value');
  }
  await requireAccountsOwn(ctx.db, body.account_id, { payment_id: body.payment_id, product_id: body.product_id, plan_id: body.plan_id });
  const userId = await eventUserId(ctx.db, body.account_id, body.user);
  const personId = await identify(ctx.db, body.account_id, { ...body.user, user_id: userId }, eventTime);
  const id = newId('cevt_');
  const [row] = await query(ctx.db, INSERT_EVENT, [id, body.account_id, personId, body.event_id ?? null, body.event_name,
    body.custom_name ?? null, eventTime, body.action_source ?? null, body.url ?? null, body.referrer_url ?? null,
    body.title ?? null, value, value === null ? null : currency, body.payment_id ?? null, body.product_id ?? null,
    body.plan_id ?? null, body.context === undefined ? null : JSON.stringify(body.context),
    body.user.email ?? null, body.user.name ?? null, body.user.phone ?? null,
    body.duration ?? null, body.resumed ?? null, body.source ?? null, JSON.stringify(shown(body.user)), JSON.stringify(profileOf(body.user)),
    body.user.member_id ?? null, body.user.membership_id ?? null]);
  if (row) return resources.TrackedEvent.view(row as Parameters<typeof resources.TrackedEvent.view>[0]);
  const stored = await ctx.db('tracked_events').where({ account_id: body.account_id, event_id: body.event_id! }).first('id');
  return readView(ctx.db, resources.TrackedEvent, stored.id);
};

const PROFILE = ['first_name', 'last_name', 'username', 'city', 'state', 'country', 'postal_code', 'birthdate', 'gender'] as const;
type EventUser = Parameters<typeof createEvent>[0]['body']['user'];

/** The profile fields the user carried, for the person (merged key by key: the latest value sent wins). */
function profileOf(user: EventUser): Record<string, string> {
  return Object.fromEntries(PROFILE.filter((k) => user[k] !== undefined).map((k) => [k, user[k] as string]));
}

/** What the event keeps of its user as sent: the contact fields and the profile. */
function shown(user: EventUser): Record<string, string> {
  const contact = Object.fromEntries((['email', 'name', 'phone'] as const).filter((k) => user[k] !== undefined).map((k) => [k, user[k] as string]));
  return { ...contact, ...profileOf(user) };
}

/** An event time the rollups can bucket: 1970 to 9998, like the stats windows. */
function checkedTime(text: string): string {
  const ms = parseInstant(text);
  const year = ms === null ? NaN : new Date(ms).getUTCFullYear();
  if (ms === null || !(year >= 1970 && year <= 9998)) throw invalid('event_time must be an ISO 8601 timestamp in the years 1970 to 9998', 'event_time');
  return new Date(ms).toISOString();
}
