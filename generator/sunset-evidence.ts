// A deprecated operation's or field's `sunset:` date is a promise to its users: it may be announced only for what
// nobody used in the usage window, or once every user was told (npm run cli -- deprecations --notify). The generator
// cannot read a database, so it reads the evidence the CLI committed: spec/deprecation-evidence.json, written by
// `npm run cli -- deprecations --record` (bin/cli-deprecations.ts), per operation the accounts that called it in the
// window, per field the accounts whose keys or webhook subscriptions received or sent it (generator/deprecated-fields.ts),
// and when the last of them was notified.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from './check-references.js';
import type { ApiSpec } from './spec-types.js';
import { declaredDeprecations } from './deprecated-fields.js';

export const EVIDENCE_FILE = 'spec/deprecation-evidence.json';

export interface DeprecationEvidence {
  window_days: number;
  recorded_at: string;
  /** per deprecated operation: the accounts that called it in the window, and when all of them had been notified */
  operations: Record<string, { users: number; noticed_at: string | null }>;
  /** per deprecated field (Schema.field, operationId.body.field): the same, for accounts whose keys or subscriptions
   * used it (absent from evidence recorded before fields could be deprecated) */
  fields?: Record<string, { users: number; noticed_at: string | null }>;
}

export function readEvidence(root: string): DeprecationEvidence | null {
  const file = join(root, EVIDENCE_FILE);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as DeprecationEvidence : null;
}

/** A sunset to check: what it is for, where it is written, and its evidence's entry. */
interface Sunset { id: string; sunset: string; where: string; seen: { users: number; noticed_at: string | null } | undefined;
  /** how messages say the users used it, and name one */
  used: string; user: string; uses: string }

/** Problems, one per sunset the evidence does not allow, at the sunset's position. */
export function checkSunsets(spec: ApiSpec, at: Locator, root: string): string[] {
  const problems: string[] = [];
  let evidence: DeprecationEvidence | null | undefined;
  const sunsets: Sunset[] = [];
  for (const op of spec.operations) {
    const sunset = op.deprecated?.sunset;
    if (!sunset) continue;
    evidence ??= readEvidence(root);
    sunsets.push({ id: op.id, sunset, where: at(`spec/areas/${op.area}.yaml`, ['operations', op.id, 'deprecated', 'sunset']),
      seen: evidence?.operations[op.id], used: 'called it', user: 'caller', uses: 'calls' });
  }
  for (const d of declaredDeprecations(spec)) {
    if (!d.deprecated.sunset) continue;
    evidence ??= readEvidence(root);
    sunsets.push({ id: d.id, sunset: d.deprecated.sunset, where: at(d.file, [...d.path, 'deprecated', 'sunset']),
      seen: evidence?.fields?.[d.id], used: 'used it', user: 'user', uses: 'uses' });
  }
  for (const { id, sunset, where, seen, used, user, uses } of sunsets) {
    if (!evidence || !seen) {
      problems.push(`${where}: a sunset for ${id} needs evidence that nobody still ${uses} it, and ${EVIDENCE_FILE} records none for it (run npm run cli -- deprecations --record)`);
    } else if (seen.users > 0 && !seen.noticed_at) {
      problems.push(`${where}: ${id} cannot be given a sunset: ${seen.users} account${seen.users === 1 ? '' : 's'} ${used} in the ${evidence.window_days} days before ${evidence.recorded_at} and ${seen.users === 1 ? 'was' : 'were'} not notified (npm run cli -- deprecations --notify, then --record)`);
    } else if (seen.users > 0 && sunset <= seen.noticed_at!.slice(0, 10)) {
      problems.push(`${where}: the sunset of ${id} (${sunset}) must come after the notice its ${seen.users} ${user}${seen.users === 1 ? ' was' : 's were'} sent on ${seen.noticed_at!.slice(0, 10)}`);
    }
  }
  return problems;
}
