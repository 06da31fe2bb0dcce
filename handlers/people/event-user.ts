// The platform user an event names (spec/areas/people.yaml, createEvent): user.user_id, user.linked_wuid (the
// platform user a linked frame captured) and the users of user.member_id and user.membership_id, which must be the
// account's. Naming several is fine when they name one user; the first that differs is a 400 naming it.
import type { Knex } from 'knex';
import { invalid } from '../../runtime/errors.js';
import { query } from '../../runtime/request-db.js';

export interface NamedUser { user_id?: string; linked_wuid?: string; member_id?: string; membership_id?: string }

const OF_ACCOUNT = `select (select user_id from members where id = $2 and account_id = $1) as member_id,
  (select user_id from memberships where id = $3 and account_id = $1) as membership_id`;

/** The one user the event's user names, or undefined when it names none. */
export async function eventUserId(db: Knex, accountId: string, user: NamedUser): Promise<string | undefined> {
  const owners: Partial<Record<keyof NamedUser, string>> = { user_id: user.user_id, linked_wuid: user.linked_wuid };
  if (user.member_id !== undefined || user.membership_id !== undefined) {
    const [found] = await query<Record<'member_id' | 'membership_id', string | null>>(db, OF_ACCOUNT,
      [accountId, user.member_id ?? null, user.membership_id ?? null]);
    for (const [k, noun] of [['member_id', 'member'], ['membership_id', 'membership']] as const) {
      if (user[k] === undefined) continue;
      // Another account's member reads like an unknown one, so nothing about it leaks.
      if (!found![k]) throw invalid(`No such ${noun} of account ${accountId}: '${user[k]}'`, `user.${k}`);
      owners[k] = found![k]!;
    }
  }
  const named = (Object.keys(owners) as (keyof NamedUser)[]).filter((k) => owners[k] !== undefined);
  const [first, ...rest] = named;
  if (first === undefined) return undefined;
  const other = rest.find((k) => owners[k] !== owners[first]);
  if (other) throw invalid(`user.${other} names the user ${owners[other]}, but user.${first} names ${owners[first]}: an event has one user`, `user.${other}`);
  return owners[first];
}
