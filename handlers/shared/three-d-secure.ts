// 3D Secure policy rules shared by accounts, variants and checkout configurations.
import type { Knex } from 'knex';
import { invalid } from '../../runtime/errors.js';

/**
 * Mandatory challenges stay off until an operator enables them for the account or, for a connected account, its
 * platform (changelog entry 24: "explicit mandatory challenges are rejected until enabled on the platform"), with
 * `npm run cli -- operator --three-d-secure-challenges enable` (bin/cli-operator.ts).
 */
export async function checkChallengeAllowed(db: Knex, account: { id: string; parent_id?: string | null },
  param = 'three_d_secure_policy'): Promise<void> {
  const enabled = await db('accounts').whereIn('id', [account.id, account.parent_id].filter((id): id is string => !!id))
    .where('three_d_secure_challenge_enabled', true).first('id');
  if (!enabled) {
    throw invalid('three_d_secure_policy mandate_challenge is not enabled on this platform; use mandate_if_required or '
      + 'frictionless_if_required', param);
  }
}

/** The same check for an account known only by id. */
export async function checkChallengeAllowedFor(db: Knex, accountId: string, param?: string): Promise<void> {
  const account = await db('accounts').where({ id: accountId }).first('id', 'parent_id');
  await checkChallengeAllowed(db, account, param);
}
