// The rules a key's settings must follow beyond their shape: a policy of exactly one kind made of known actions,
// no more power than its creator holds, addresses node:net understands, an expiry in the future.
import { isIP } from 'node:net';
import { forbidden, invalid } from '../../runtime/errors.js';
import type { ScopeSet } from '../../runtime/principal.js';
import type { Statement } from '../../runtime/auth.js';
import { specData } from '../../generated/spec-data.js';

const SCOPES: readonly string[] = specData.scopes;
const ROLES = specData.roles as Record<string, readonly string[]>;

export interface Policy {
  role: string | null;
  statements: Statement[];
}

function isKnownAction(action: string): boolean {
  if (action === '*') return true;
  if (action.endsWith(':*')) return SCOPES.some((s) => s.startsWith(action.slice(0, -1)));
  return SCOPES.includes(action);
}

export function checkPolicy(role: string | undefined, statements: Statement[] | undefined): Policy {
  if (role === undefined && statements === undefined) {
    throw invalid('Send either role (a system role to inherit) or statements (an explicit policy)', 'role');
  }
  if (role !== undefined && statements !== undefined) {
    throw invalid('Send either role or statements, not both', 'statements');
  }
  if (role !== undefined) {
    if (!(role in ROLES)) throw invalid(`role must be a system role: ${Object.keys(ROLES).join(', ')}`, 'role');
    return { role, statements: [] };
  }
  if (statements!.length === 0) throw invalid('statements must hold at least one statement', 'statements');
  statements!.forEach((s, i) => {
    if (s.actions.length === 0) throw invalid('A statement needs at least one action', `statements.${i}.actions`);
    s.actions.forEach((action, j) => {
      if (!isKnownAction(action)) {
        throw invalid(`'${action}' is not a known permission scope or wildcard (such as plan:*)`, `statements.${i}.actions.${j}`);
      }
    });
  });
  return { role: null, statements: statements! };
}

/** A user may not mint a key stronger than themselves: every allowed action must be one they hold. */
export function checkGrantable(policy: Policy, held: ScopeSet, accountId: string): void {
  const granted = policy.role ? ROLES[policy.role] : policy.statements.filter((s) => s.effect === 'allow').flatMap((s) => s.actions);
  const beyond = granted.filter((action) => !held.has(action));
  if (beyond.length) {
    throw forbidden(`You cannot grant ${beyond.join(', ')} on ${accountId}: your own access does not include it`);
  }
}

function isAddressOrRange(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

export function checkIpAllowlist(entries: string[]): string[] {
  entries.forEach((entry, i) => {
    if (!isAddressOrRange(entry)) {
      throw invalid(`'${entry}' is not an IP address or CIDR range (such as 203.0.113.7 or 10.0.0.0/8)`, `ip_allowlist.${i}`);
    }
  });
  return entries;
}

export function checkExpiry(expiresAt: string | null): string | null {
  if (expiresAt !== null && Date.parse(expiresAt) <= Date.now()) throw invalid('expires_at must be in the future', 'expires_at');
  return expiresAt;
}
