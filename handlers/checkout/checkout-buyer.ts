// Who buys on the hosted checkout page: the page has no signed-in user, so the buyer gives an e-mail address. It
// names the platform user with that address, or a new user made for it (like a hosted checkout that signs the buyer
// up as it sells), in the purchase's transaction: a purchase that fails makes no user.
import type { Knex } from 'knex';
import { invalid } from '../../runtime/errors.js';
import { newId, randomToken } from '../../runtime/ids.js';

// The shape the API's `email` type accepts, kept simple: one @, no spaces, a dot in the domain.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(email: string): string {
  const clean = email.trim().toLowerCase();
  if (!EMAIL.test(clean) || clean.length > 254) throw invalid('Enter the e-mail address the purchase is for (name@example.com)', 'email');
  return clean;
}

/** A username from the address: its local part in the users' alphabet (a-z, 0-9, _), made unique by a suffix. */
const usernameFor = (email: string) =>
  `${email.split('@')[0].replace(/[^a-z0-9_]/g, '_').slice(0, 20).padEnd(3, '_')}_${randomToken(8).toLowerCase()}`;

/** The user with this e-mail (any case), made when there is none; its id. */
export async function buyerFor(db: Knex, email: string): Promise<string> {
  const found = await db('users').whereRaw('lower(email) = ?', [email]).first('id');
  if (found) return found.id;
  // Two checkouts racing for a new address: one inserts, the other finds it.
  const [made] = await db('users').insert({ id: newId('user_'), username: usernameFor(email), email, name: null })
    .onConflict('email').ignore().returning('id');
  return made?.id ?? (await db('users').where({ email }).first('id')).id;
}
