// Launching a draft campaign: the ads agreement must not be waiting for a signature (signing is answering the
// ads_agreement verification, handlers/verifications/ads-agreement.ts) and ads billing must be configured.
import type { Knex } from 'knex';
import { ApiError, invalid } from '../../runtime/errors.js';
import { loadPreferences } from '../account_preferences/index.js';

export async function checkLaunchable(db: Knex, accountId: string): Promise<void> {
  const prefs = await loadPreferences(db, accountId);
  if (prefs.ads_agreement.status === 'pending_signature') {
    throw new ApiError(400, 'invalid_state',
      `The ads agreement of ${accountId} is pending_signature: sign it by answering its verification (PATCH /verifications/{id}) before launching a campaign`,
      'ads_agreement');
  }
  if (!prefs.ads_payment_methods?.primary) {
    throw invalid(`Account ${accountId} has no ads payment method: set ads_payment_methods.primary in its preferences before launching`, 'ads_payment_methods');
  }
}
