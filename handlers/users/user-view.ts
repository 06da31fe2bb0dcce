// User rows -> the User resource. The e-mail and the wallet are private: only the user themself, through their own
// token, sees them.
import type { Knex } from 'knex';
import type { User } from '../../generated/types.js';
import { resources } from '../../generated/resources.js';
import { walletBalanceOf } from './user-balance.js';
import type { Principal } from '../../runtime/principal.js';

import type { UserRow } from '../../generated/rows.js';

export type { UserRow };

export const isSelf = (principal: Principal, userId: string) =>
  principal.kind === 'user_token' && principal.userId === userId;

/** The user as the caller sees them; their wallet is read only when the caller is that user. */
export async function userFor(db: Knex, row: UserRow, principal: Principal): Promise<User> {
  return userView(row, principal, isSelf(principal, row.id) ? await walletBalanceOf(db, row.id) : null);
}

/** The generated view of the public profile, and the two fields that depend on who asks. */
export function userView(row: UserRow, principal: Principal, balance: User['balance'] = null): User {
  return { ...resources.User.view(row), email: isSelf(principal, row.id) ? row.email : null, balance };
}
