// What a role may carry and who may hand it out. Custom roles name their scopes; system roles take none.
// Nobody grants (or takes away) more than they hold themselves, so team_member:manage cannot be an escalation path.
import { forbidden, invalid } from '../../runtime/errors.js';
import { roleScopes } from '../../runtime/auth.js';
import type { Access } from '../../runtime/access.js';
import { specData } from '../../generated/spec-data.js';

const CATALOGUE: readonly string[] = specData.scopes;

/** A catalogue scope, or `<prefix>:*` covering at least one catalogue scope. */
function isKnownPermission(p: string): boolean {
  if (p.endsWith(':*')) return CATALOGUE.some((s) => s.startsWith(p.slice(0, -1)));
  return CATALOGUE.includes(p);
}

/** The permissions to store for a role: 400 when custom lacks them, another role has them, or one is unknown. */
export function permissionsFor(role: string, permissions: readonly string[] | undefined): string[] {
  const given = [...new Set(permissions ?? [])];
  if (role !== 'custom') {
    if (given.length) throw invalid(`Only the custom role takes permissions; ${role} grants its own`, 'permissions');
    return [];
  }
  if (!given.length) throw invalid('The custom role needs at least one permission', 'permissions');
  const unknown = given.find((p) => !isKnownPermission(p));
  if (unknown) throw invalid(`Unknown permission '${unknown}'; use scopes from the catalogue or '<prefix>:*'`, 'permissions');
  return given;
}

/** 403 unless the caller holds, on the account, every scope the role grants. */
export async function requireGrantable(access: Access, accountId: string, role: string, permissions: readonly string[]): Promise<void> {
  const granted = roleScopes(role, permissions);
  for (const scope of CATALOGUE) {
    if (granted.has(scope) && !(await access.has(accountId, scope))) {
      throw forbidden(`The ${role} role includes ${scope}, which this credential does not hold on ${accountId}`);
    }
  }
}
