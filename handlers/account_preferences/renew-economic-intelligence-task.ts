// renew_economic_intelligence: runs at economic_intelligence_ends_at and, when the account's offer auto-renews and
// renewal was not stopped, charges the next period's price from the account's balance, extends the period by the
// offer's duration and schedules the next run. A period that cannot be paid is not started: renewal stops, the
// feature is off from the period's end, and account.economic_intelligence.renewal_failed says so.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { durationMs, PARAM, scheduleRenewal, touched } from './economic-intelligence.js';
import { chargePeriod, type PricedOffer } from './economic-intelligence-charge.js';
import { recordEvent } from '../../generated/events.js';
import { clockNow } from '../../runtime/clock.js';
import { ApiError } from '../../runtime/errors.js';
import type { Tables } from '../../generated/rows.js';

/** The period's charge in a savepoint: a refused one (insufficient_funds) leaves the job's transaction usable. */
async function paid(trx: Knex, accountId: string, offer: PricedOffer, periodStart: Date): Promise<boolean> {
  try {
    await trx.transaction((sp) => chargePeriod(sp, accountId, offer, periodStart, PARAM));
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.type === 'insufficient_funds') return false;
    throw e;
  }
}

export async function renewEconomicIntelligence(db: Knex, accountId: string, now = clockNow().getTime()): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await trx('accounts').where({ id: accountId }).forUpdate()
      .first('id', 'economic_intelligence_ends_at', 'economic_intelligence_offer_key', 'economic_intelligence_auto_renew');
    if (!row?.economic_intelligence_auto_renew || !row.economic_intelligence_ends_at) return;
    const offer = await trx<Tables['economic_intelligence_offers']>('economic_intelligence_offers')
      .where({ key: row.economic_intelligence_offer_key }).first();
    if (!offer?.auto_renew) {
      await trx('accounts').where({ id: accountId }).update({ economic_intelligence_auto_renew: false, ...touched(trx) });
      return;
    }
    const endsAt = Date.parse(row.economic_intelligence_ends_at);
    // A job left over from an earlier period can run early: it only moves itself to the current ends_at.
    if (endsAt > now) return scheduleRenewal(trx, accountId, new Date(endsAt));
    // Periods stay back to back; after a worker outage every missed period is renewed and charged, not skipped.
    let next = endsAt;
    while (next <= now) {
      if (!(await paid(trx, accountId, offer, new Date(next)))) {
        const endedAt = new Date(next).toISOString();
        await trx('accounts').where({ id: accountId })
          .update({ economic_intelligence_ends_at: endedAt, economic_intelligence_auto_renew: false, ...touched(trx) });
        await recordEvent(trx, 'account.economic_intelligence.renewal_failed', accountId, { account_id: accountId, offer_key: offer.key, ends_at: endedAt });
        return;
      }
      next += durationMs(offer);
    }
    const renewedUntil = new Date(next).toISOString();
    await trx('accounts').where({ id: accountId }).update({ economic_intelligence_ends_at: renewedUntil, ...touched(trx) });
    await recordEvent(trx, 'account.economic_intelligence.renewed', accountId, { account_id: accountId, offer_key: offer.key, ends_at: renewedUntil });
    await scheduleRenewal(trx, accountId, new Date(next));
  });
}

export function renewEconomicIntelligenceTask(db: Knex): Task {
  return async (payload) => {
    await renewEconomicIntelligence(db, (payload as { account_id: string }).account_id);
  };
}
