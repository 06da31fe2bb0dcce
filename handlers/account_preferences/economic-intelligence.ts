// Economic Intelligence on an account: on for a chosen offer's duration, paid from the account's balance when chosen,
// read-only while on, never started during a free trial; auto-renewing offers (weekly) are charged and extended at
// each ends_at by the renew_economic_intelligence job. An account's first period, when it is of an auto-renewing
// offer, is a free trial (economic_intelligence_trial_ends_at): not charged, and its end is the first renewal.
import type { Knex } from 'knex';
import type { AccountPreferences } from '../../generated/types.js';
import { invalid } from '../../runtime/errors.js';
import { addJob } from '../../runtime/jobs.js';
import { clockNow } from '../../runtime/clock.js';
import { pickableOffers, type AccountRow } from '../accounts/index.js';
import { nowMs } from '../shared/now.js';
import { queueRecommendations } from '../economic_intelligence/index.js';
import { economicIntelligenceOffers } from '../shared/reference-tables.js';
import { chargePeriod, type PricedOffer } from './economic-intelligence-charge.js';

export const RENEW_TASK = 'renew_economic_intelligence';
export const PARAM = 'economic_intelligence_duration_key';
const HOUR_MS = 3_600_000;

/** One renewal per account and period end. The key names the period, not only the account: a run that schedules the
 * next period under its own key would be replaced in place, and on a sandbox clock the timer row it ran from (then
 * rescheduled) is deleted once it ran (runtime/clock-advance.ts), losing the next renewal. */
export const renewJobKey = (accountId: string, at: Date) => `${RENEW_TASK}:${accountId}:${at.toISOString()}`;

export function durationMs(offer: { duration: number; duration_unit: string }): number {
  return offer.duration * (offer.duration_unit === 'hours' ? HOUR_MS : 24 * HOUR_MS);
}

const isFuture = (ts: string | null, now: number): ts is string => ts !== null && Date.parse(ts) > now;

/** Economic Intelligence is part of the Account resource, so its changes move the account's updated_at. */
export const touched = (db: Knex) => ({ updated_at: nowMs(db) });

export function economicIntelligenceView(row: AccountRow, now = clockNow().getTime()): AccountPreferences['economic_intelligence'] {
  const on = isFuture(row.economic_intelligence_ends_at, now);
  return {
    // A free trial is the feature on without a paid period.
    enabled: on || isFuture(row.economic_intelligence_trial_ends_at, now),
    ends_at: row.economic_intelligence_ends_at,
    offer_key: row.economic_intelligence_offer_key,
    auto_renew: on && row.economic_intelligence_auto_renew,
    trial_ends_at: row.economic_intelligence_trial_ends_at,
  };
}

/** Never on before (no period, no trial): the free trial is for an account's first period only. */
const firstTime = (row: AccountRow) => row.economic_intelligence_ends_at === null && row.economic_intelligence_trial_ends_at === null;

export async function scheduleRenewal(db: Knex, accountId: string, at: Date): Promise<void> {
  await addJob(db, RENEW_TASK, { account_id: accountId }, { jobKey: renewJobKey(accountId, at), runAt: at });
}

/** Stopping renewal keeps the current period; the scheduled job then finds nothing to renew. */
async function stopRenewal(db: Knex, row: AccountRow, now: number): Promise<void> {
  if (!isFuture(row.economic_intelligence_ends_at, now)) return;
  if (!row.economic_intelligence_auto_renew) {
    throw invalid(`Economic Intelligence is on until ${row.economic_intelligence_ends_at} and cannot be turned off before then`, PARAM);
  }
  await db('accounts').where({ id: row.id }).update({ economic_intelligence_auto_renew: false, ...touched(db) });
}

/**
 * Applies economic_intelligence_duration_key to a locked account row: a key turns the feature on for that offer's
 * duration; null stops auto-renewal.
 */
export async function applyDurationKey(db: Knex, row: AccountRow, key: string | null, now = clockNow().getTime()): Promise<void> {
  if (key === null) return stopRenewal(db, row, now);
  const endsAt = row.economic_intelligence_ends_at;
  if (isFuture(endsAt, now)) {
    // Resuming renewal of the running offer is not a change of period, so it is allowed while on.
    const resumes = key === row.economic_intelligence_offer_key
      && (await db('economic_intelligence_offers').where({ key }).first('auto_renew'))?.auto_renew;
    if (!resumes) throw invalid(`Economic Intelligence is on until ${endsAt} and cannot be changed before then`, PARAM);
    if (!row.economic_intelligence_auto_renew) {
      await db('accounts').where({ id: row.id }).update({ economic_intelligence_auto_renew: true, ...touched(db) });
      await scheduleRenewal(db, row.id, new Date(endsAt));
    }
    return;
  }
  if (isFuture(row.economic_intelligence_trial_ends_at, now)) {
    throw invalid(`Economic Intelligence cannot be turned on during the free trial, which ends ${row.economic_intelligence_trial_ends_at}`, PARAM);
  }
  const offers = await pickableOffers(db, row, now);
  const offer = offers.find((o) => o.key === key);
  if (!offer) throw invalid(`'${key}' is not an offer that can be picked now; choose one of: ${offers.map((o) => o.key).join(', ')}`, PARAM);
  const until = new Date(now + durationMs(offer));
  const trial = offer.auto_renew && firstTime(row);
  if (!trial) {
    const priced: PricedOffer = (await economicIntelligenceOffers(db)).find((o) => o.key === offer.key)!;
    // In the request's transaction: a refused charge (400 insufficient_funds) leaves nothing of the write behind.
    await chargePeriod(db, row.id, priced, new Date(now), PARAM);
  }
  await db('accounts').where({ id: row.id }).update({
    economic_intelligence_ends_at: until.toISOString(),
    economic_intelligence_offer_key: offer.key,
    economic_intelligence_auto_renew: offer.auto_renew,
    ...(trial ? { economic_intelligence_trial_ends_at: until.toISOString() } : {}),
    ...touched(db),
  });
  if (offer.auto_renew) await scheduleRenewal(db, row.id, until);
  // The first recommendations come at once rather than at the next hourly sweep.
  await queueRecommendations(db, row.id);
}
