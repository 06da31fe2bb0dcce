// Signing the ads agreement: the account's preferences document holds it (ads_agreement, read-only to callers).
import type { Knex } from 'knex';
import { loadPreferencesForUpdate, savePreferences } from '../account_preferences/index.js';

export async function signAdsAgreement(db: Knex, accountId: string, printedName: string): Promise<void> {
  const prefs = await loadPreferencesForUpdate(db, accountId);
  const { rows } = await db.raw(`select to_char(date_trunc('milliseconds', now()) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at`);
  prefs.ads_agreement = { ...prefs.ads_agreement, status: 'signed', printed_name: printedName, accepted_at: rows[0].at };
  await savePreferences(db, accountId, prefs);
}
