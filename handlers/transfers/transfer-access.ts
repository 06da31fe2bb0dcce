// Who may see and move a transfer's money. A side is a business account, seen with a scope on it as everywhere
// else (runtime/access.ts), or a user's personal wallet, which only that user's own token acts on: API keys never
// reach a user's wallet. Invisible sides are 404s, never leaked; a visible account without the scope is a 403.
import type { Access } from '../../runtime/access.js';
import { forbidden, notFound } from '../../runtime/errors.js';

export type SideAccess = 'allowed' | 'forbidden' | 'invisible';

export const isWallet = (id: string): boolean => id.startsWith('user_');

export async function sideAccess(access: Access, id: string, scope: string): Promise<SideAccess> {
  if (isWallet(id)) return access.principal.kind === 'user_token' && access.principal.userId === id ? 'allowed' : 'invisible';
  const held = await access.scopesOn(id);
  if (!held) return 'invisible';
  return held.has(scope) ? 'allowed' : 'forbidden';
}

/** The caller may act with `scope` on at least one of `sides`; else a 403 when it sees one of them, a 404 naming
 * `param` when it sees none. Returns the sides it may act on. */
export async function requireSomeSide(access: Access, sides: { id: string; param?: string }[], scope: string,
  missing: { noun: string; id: string; param?: string }): Promise<string[]> {
  const seen = await Promise.all(sides.map(async (s) => ({ ...s, access: await sideAccess(access, s.id, scope) })));
  const allowed = seen.filter((s) => s.access === 'allowed').map((s) => s.id);
  if (allowed.length) return allowed;
  const refused = seen.find((s) => s.access === 'forbidden');
  if (refused) throw forbidden(`This credential lacks the ${scope} permission on ${refused.id}`);
  throw notFound(missing.noun, missing.id, missing.param);
}

/** Every side whose transfers the caller may read with `scope`: the accounts where it holds it, and a user token's
 * own wallet. */
export async function readableSides(access: Access, scope: string): Promise<string[]> {
  const accounts = await access.accountsHolding(scope);
  const p = access.principal;
  return p.kind === 'user_token' && p.userId ? [...accounts, p.userId] : accounts;
}
