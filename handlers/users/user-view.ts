// User rows -> the User resource. The e-mail is private: only the user themself, through their own token, sees it.
import type { User } from '../../generated/types.js';
import type { Principal } from '../../runtime/principal.js';

export type UserRow = Record<string, any>;

export const isSelf = (principal: Principal, userId: string) =>
  principal.kind === 'user_token' && principal.userId === userId;

export function userView(row: UserRow, principal: Principal): User {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    bio: row.bio,
    profile_picture: row.profile_picture_url,
    city: row.city,
    country: row.country,
    email: isSelf(principal, row.id) ? row.email : null,
    created_at: row.created_at,
  };
}
