// User rows -> the User resource. The e-mail and the wallet are private: only the user themself, through their own
// token, sees them.
import type { Knex } from 'knex';
import type { User } from '../../generated/types.js';
import { walletBalanceOf } from './user-balance.js';
import type { Principal } from '../../runtime/principal.js';

export type UserRow = Record<string, any>;

export const isSelf = (principal: Principal, userId: string) =>
  principal.kind === 'user_token' && principal.userId === userId;

/** The user as the caller sees them; their wallet is read only when the caller is that user. */
export async function userFor(db: Knex, row: UserRow, principal: Principal): Promise<User> {
  return userView(row, principal, isSelf(principal, row.id) ? await walletBalanceOf(db, row.id) : null);
}

export function userView(row: UserRow, principal: Principal, balance: User['balance'] = null): User {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    bio: row.bio,
    profile_picture: row.profile_picture_url,
    city: row.city,
    country: row.country,
    email: isSelf(principal, row.id) ? row.email : null,
    balance,
    created_at: row.created_at,
  };
}
