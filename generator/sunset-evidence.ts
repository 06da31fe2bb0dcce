// A deprecated operation's `sunset:` date is a promise to its callers: it may be announced only for what nobody called
// in the usage window, or once every caller was told (npm run cli -- deprecations --notify). The generator cannot
// read a database, so it reads the evidence the CLI committed: spec/deprecation-evidence.json, written by
// `npm run cli -- deprecations --record` (bin/cli-deprecations.ts), per operation the accounts that called it in the
// window and when the last of them was notified.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from './check-references.js';
import type { ApiSpec } from './spec-types.js';

export const EVIDENCE_FILE = 'spec/deprecation-evidence.json';

export interface DeprecationEvidence {
  window_days: number;
  recorded_at: string;
  /** per deprecated operation: the accounts that called it in the window, and when all of them had been notified */
  operations: Record<string, { users: number; noticed_at: string | null }>;
}

export function readEvidence(root: string): DeprecationEvidence | null {
  const file = join(root, EVIDENCE_FILE);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as DeprecationEvidence : null;
}

/** Problems, one per sunset the evidence does not allow, at the sunset's position. */
export function checkSunsets(spec: ApiSpec, at: Locator, root: string): string[] {
  const problems: string[] = [];
  let evidence: DeprecationEvidence | null | undefined;
  for (const op of spec.operations) {
    const sunset = op.deprecated?.sunset;
    if (!sunset) continue;
    evidence ??= readEvidence(root);
    const where = at(`spec/areas/${op.area}.yaml`, ['operations', op.id, 'deprecated', 'sunset']);
    const seen = evidence?.operations[op.id];
    if (!evidence || !seen) {
      problems.push(`${where}: a sunset for ${op.id} needs evidence that nobody still calls it, and ${EVIDENCE_FILE} records none for it (run npm run cli -- deprecations --record)`);
    } else if (seen.users > 0 && !seen.noticed_at) {
      problems.push(`${where}: ${op.id} cannot be given a sunset: ${seen.users} account${seen.users === 1 ? '' : 's'} called it in the ${evidence.window_days} days before ${evidence.recorded_at} and ${seen.users === 1 ? 'was' : 'were'} not notified (npm run cli -- deprecations --notify, then --record)`);
    } else if (seen.users > 0 && sunset <= seen.noticed_at!.slice(0, 10)) {
      problems.push(`${where}: the sunset of ${op.id} (${sunset}) must come after the notice its ${seen.users} caller${seen.users === 1 ? ' was' : 's were'} sent on ${seen.noticed_at!.slice(0, 10)}`);
    }
  }
  return problems;
}
