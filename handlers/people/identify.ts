// Which person an event belongs to (spec/areas/people.yaml, migrations/400_people_events.ts). A person is known by
// identities (an anonymous id, a user id, an email, an external id: the account's own id for it), each naming one
// person of the account:
//   - a user id or an external id identifies the event: the user's person, else the external id's (unless another
//     user's); with an anonymous id that names a person not yet identified as a user, that person is merged into it
//     (its identities and events move, its row goes), or becomes the identified person when there is none yet;
//   - an anonymous id already identified as another user stays with that user (a shared device): the event goes
//     to this user's person;
//   - otherwise the first of anonymous id, email that names a person names it; else a person is created;
//   - a linked anonymous id (a second one, e.g. from a linked frame) whose person is not yet a user's is merged into
//     the event's person the same way.
// Identities nobody holds are added to the person. The identities named are locked (transaction advisory locks, in
// one sorted order) before they are read, so concurrent first events of one visitor make one person; a merge also
// holds the merged person's other identities, so an event never lands on a person a concurrent merge removes.
import type { Knex } from 'knex';
import { query } from '../../runtime/request-db.js';
import { invalid } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';

/** The identities of an event's user; user_id is the one platform user it names (event-user.ts). */
export interface EventUser { anonymous_id?: string; user_id?: string; email?: string; external_id?: string; linked_anonymous_id?: string }
type Kind = 'anonymous_id' | 'user_id' | 'email' | 'external_id';
interface Held { kind: Kind; value: string; person_id: string; user_id: string | null }

export const LOCK = `select count(pg_advisory_xact_lock(h)) from (select hashtextextended(k, 400) as h from unnest($1::text[]) k order by 1) s`;
export const HELD = `select i.kind, i.value, i.person_id, p.user_id from person_identities i join people p on p.id = i.person_id
  where i.account_id = $1 and (i.kind, i.value) in (select * from unnest($2::text[], $3::text[]))`;
export const ADD = `insert into person_identities (account_id, kind, value, person_id)
  select $1, k, v, $4 from unnest($2::text[], $3::text[]) as n(k, v) on conflict do nothing`;
export const CREATE = `insert into people (id, account_id, user_id, first_seen_at, last_seen_at)
  values ($1, $2, $3, coalesce($4::timestamptz, date_trunc('milliseconds', now())), coalesce($4::timestamptz, date_trunc('milliseconds', now())))`;

/** The identities an event's user names, in a stable order; emails compare case-insensitively. */
function identitiesOf(user: EventUser): [Kind, string][] {
  const out: [Kind, string][] = [];
  if (user.anonymous_id !== undefined) out.push(['anonymous_id', user.anonymous_id]);
  if (user.user_id !== undefined) out.push(['user_id', user.user_id]);
  if (user.email !== undefined) out.push(['email', user.email.toLowerCase()]);
  if (user.external_id !== undefined) out.push(['external_id', user.external_id]);
  return out;
}

/** The person (id) the event is attributed to, created or merged as the rules above say, its identities added. */
export async function identify(db: Knex, accountId: string, user: EventUser, eventTime: string | null): Promise<string> {
  const own = identitiesOf(user);
  if (!own.length) {
    throw invalid('user must name the person: at least one of user.anonymous_id, user.user_id, user.email, user.external_id, user.member_id, user.membership_id, user.linked_wuid', 'user');
  }
  const linked: [Kind, string] | undefined = user.linked_anonymous_id === undefined || user.linked_anonymous_id === user.anonymous_id
    ? undefined : ['anonymous_id', user.linked_anonymous_id];
  const named = linked ? [...own, linked] : own;
  await query(db, LOCK, [named.map(([k, v]) => `${accountId}:${k}:${v}`)]);
  const held = await query<Held>(db, HELD, [accountId, named.map(([k]) => k), named.map(([, v]) => v)]);
  const find = (kind: Kind, value: string | undefined) => value === undefined ? undefined
    : held.find((h) => h.kind === kind && h.value === (kind === 'email' ? value.toLowerCase() : value));
  const byAnon = find('anonymous_id', user.anonymous_id);
  const anonymous = byAnon && byAnon.user_id === null ? byAnon : undefined;
  const byExternal = find('external_id', user.external_id);
  const identified = user.user_id !== undefined || user.external_id !== undefined;
  // The user's person; else the external id's, unless it is another user's.
  const known = find('user_id', user.user_id)
    ?? (byExternal && (user.user_id === undefined || byExternal.user_id === null) ? byExternal : undefined);

  let personId: string;
  if (identified && (known ?? anonymous)) {
    const found = (known ?? anonymous)!;
    personId = found.person_id;
    if (user.user_id !== undefined && found.user_id === null) await db('people').where({ id: personId }).update({ user_id: user.user_id });
    if (anonymous && anonymous.person_id !== personId) await merge(db, accountId, anonymous.person_id, personId);
  } else if (!identified && (byAnon ?? find('email', user.email))) {
    personId = (byAnon ?? find('email', user.email))!.person_id;
  } else {
    personId = newId('prsn_');
    await query(db, CREATE, [personId, accountId, user.user_id ?? null, eventTime]);
  }
  const other = linked && find(...linked);
  if (other && other.person_id !== personId && other.person_id !== anonymous?.person_id && other.user_id === null) await merge(db, accountId, other.person_id, personId);
  const missing = named.filter(([k, v]) => !find(k, v));
  if (missing.length) await query(db, ADD, [accountId, missing.map(([k]) => k), missing.map(([, v]) => v), personId]);
  return personId;
}

/** The anonymous person's other identities, locked without waiting: an event holding one of them may be writing to
 * the person, and waiting for it here (after this event's own locks) could deadlock. */
const LOCK_OTHERS = `select coalesce(bool_and(pg_try_advisory_xact_lock(hashtextextended($1 || ':' || kind || ':' || value, 400))), true) as locked
  from person_identities where person_id = $2`; // the ones this event holds already are granted again

/** An anonymous person merged into an identified one: identities and events move, counts and seen times combine,
 * the profile keeps the identified person's values where it has them; the anonymous row goes. When another event
 * holds one of its other identities (an email) the merge waits for a later identification: the event still goes to
 * the user's person. */
async function merge(db: Knex, accountId: string, from: string, into: string): Promise<void> {
  const [others] = await query<{ locked: boolean }>(db, LOCK_OTHERS, [accountId, from]);
  if (!others!.locked) return;
  await db('person_identities').where({ person_id: from }).update({ person_id: into });
  await db('tracked_events').where({ person_id: from }).update({ person_id: into });
  await db.raw(`update people t set event_count = t.event_count + a.event_count, purchase_count = t.purchase_count + a.purchase_count,
      first_seen_at = least(t.first_seen_at, a.first_seen_at), last_seen_at = greatest(t.last_seen_at, a.last_seen_at),
      email = coalesce(t.email, a.email), name = coalesce(t.name, a.name), phone = coalesce(t.phone, a.phone),
      profile = a.profile || t.profile, updated_at = date_trunc('milliseconds', now())
    from people a where t.id = ? and a.id = ?`, [into, from]);
  await db('people').where({ id: from }).delete();
}
