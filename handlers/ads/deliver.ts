// The ad network at work: every full UTC hour, each active campaign delivers what the network reports for it
// (ad-network-port.ts deliverHour), writes one hour row per ad and adds it to the day rows, bills the hour (billing.ts)
// and advances delivered_through. One campaign-hour is one transaction with the campaign locked, and delivered_through
// says what is done: a re-run or a second worker delivers nothing twice, and a worker that died mid-hour left nothing
// of that hour behind. Hours are business time: the campaigns of accounts in the current clock scope
// (handlers/shared/sweep-scope.ts) deliver up to the clock context's now, the cron's at real time, a sandbox clock's
// at each hour its advance passes (adDeliverySweep).
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import type { ClockSweep } from '../../runtime/clock-advance.js';
import { clockNow } from '../../runtime/clock.js';
import { isoOrNull, sweepScope } from '../shared/sweep-scope.js';
import { recordEvent } from '../../generated/events.js';
import { audienceSizes } from './references.js';
import { adNetwork, type AdHour, type Objective } from './ad-network-port.js';
import { chargeHour, paymentIssue } from './billing.js';
import { afterCampaignChange, deliveryStatuses } from './campaign-events.js';
import type { AdCampaignRow, AdGroupRow, AdRow } from '../../generated/rows.js';

export const DELIVER_ADS = 'deliver_ads';
const HOUR = 3_600_000;
/** A worker that was away catches up at most a week of hours per run. */
const CATCH_UP_HOURS = 168;

const ceilHour = (t: number) => Math.ceil(t / HOUR) * HOUR;

/** The figures of each delivering ad for one hour of the campaign, as the network reports them. */
async function hourFigures(db: Knex, c: AdCampaignRow): Promise<{ ad: AdRow; hour: AdHour }[]> {
  const groups: AdGroupRow[] = await db('ad_groups').where({ ad_campaign_id: c.id, status: 'active' }).whereNull('deleted_at').orderBy('id');
  const ads: AdRow[] = await db('ads').where({ ad_campaign_id: c.id, status: 'active' }).whereNull('deleted_at').orderBy('id');
  const live = groups.map((g) => ({ g, ads: ads.filter((a) => a.ad_group_id === g.id) })).filter((x) => x.ads.length > 0);
  if (live.length === 0) return [];
  const named = [...new Set(live.flatMap(({ g }) => [...g.audiences.include, ...g.audiences.exclude]))];
  // A budget the network spends has its type: a campaign's always, a group's under ad_group optimization (group-rules.ts).
  const budget = (row: Pick<AdCampaignRow | AdGroupRow, 'budget_amount' | 'budget_type' | 'spent_total'>) =>
    ({ amount: Number(row.budget_amount), type: row.budget_type!, spent: Number(row.spent_total) });
  // The schedule's times as Dates (the row's are ISO 8601 text); a launched campaign has its launched_at.
  const time = (at: string | null) => (at === null ? null : new Date(at));
  const delivered = await adNetwork().deliverHour({
    objective: c.objective as Objective, budget_optimization: c.budget_optimization, budget: budget(c),
    schedule: { starts_at: time(c.starts_at), ends_at: time(c.ends_at), launched_at: new Date(c.launched_at!) },
    groups: live.map(({ g, ads: groupAds }) => ({ budget: budget(g), audiences: g.audiences, ad_ids: groupAds.map((a) => a.id) })),
    audience_sizes: await audienceSizes(db, named),
  });
  const adsById = new Map(ads.map((a) => [a.id, a]));
  return delivered.map(({ ad_id, hour }) => ({ ad: adsById.get(ad_id)!, hour }));
}

async function writeRows(db: Knex, c: AdCampaignRow, hour: Date, figures: { ad: AdRow; hour: AdHour }[]) {
  const day = new Date(Math.floor(hour.getTime() / (24 * HOUR)) * 24 * HOUR);
  const rows = figures.filter((f) => f.hour.impressions > 0 || f.hour.spend > 0).map(({ ad, hour: h }) => ({
    ad_id: ad.id, account_id: c.account_id, ad_campaign_id: c.id, ad_group_id: ad.ad_group_id, ...h,
  }));
  if (rows.length === 0) return;
  await db('ad_delivery_hours').insert(rows.map((r) => ({ ...r, hour })));
  // Running sums kept by the task that writes the hour, in its transaction (never a trigger).
  await db.raw(`insert into ad_delivery_days (ad_id, day, account_id, ad_campaign_id, ad_group_id, impressions, clicks, results, spend, result_value)
    select x.ad_id, ?::timestamptz, x.account_id, x.ad_campaign_id, x.ad_group_id, x.impressions, x.clicks, x.results, x.spend, x.result_value
    from jsonb_to_recordset(?::jsonb) as x(ad_id text, account_id text, ad_campaign_id text, ad_group_id text, impressions bigint, clicks bigint, results bigint, spend bigint, result_value bigint)
    on conflict (ad_id, day) do update set impressions = ad_delivery_days.impressions + excluded.impressions,
      clicks = ad_delivery_days.clicks + excluded.clicks, results = ad_delivery_days.results + excluded.results,
      spend = ad_delivery_days.spend + excluded.spend, result_value = ad_delivery_days.result_value + excluded.result_value`,
  [day, JSON.stringify(rows)]);
}

/** Delivers the campaign's hour starting at `hour` if it is the next one due; answers whether the campaign may go on. */
export async function deliverCampaignHour(db: Knex, campaignId: string, hour: Date): Promise<boolean> {
  return db.transaction(async (trx) => {
    const c = await trx('ad_campaigns').where({ id: campaignId }).whereNull('deleted_at').forUpdate().first();
    if (!c || c.status !== 'active' || !c.launched_at) return false;
    const due = c.delivered_through ? new Date(c.delivered_through).getTime() : ceilHour(new Date(c.launched_at).getTime());
    if (hour.getTime() !== due) return hour.getTime() < due; // done already, or not next
    const end = new Date(hour.getTime() + HOUR);
    const inSchedule = (!c.starts_at || new Date(c.starts_at) <= hour) && (!c.ends_at || hour < new Date(c.ends_at));
    const before = (await deliveryStatuses(trx, [c.id])).get(c.id)!;
    const figures = inSchedule ? await hourFigures(trx, c) : [];
    await writeRows(trx, c, hour, figures);
    const spend = figures.reduce((s, f) => s + f.hour.spend, 0);
    await trx('ad_campaigns').where({ id: c.id }).update({ delivered_through: end, spent_total: trx.raw('spent_total + ?', [spend]) });
    if (c.budget_optimization === 'ad_group') {
      for (const f of figures) await trx('ad_groups').where({ id: f.ad.ad_group_id }).increment('spent_total', f.hour.spend);
    }
    if (spend > 0 && !(await chargeHour(trx, c, hour, spend))) {
      const failed = await trx('ad_charges').where({ ad_campaign_id: c.id, hour }).first('failure_reason');
      await trx('ad_campaigns').where({ id: c.id }).update({
        status: 'payment_failed', issues: JSON.stringify([paymentIssue(c.id, failed.failure_reason)]), updated_at: trx.raw("date_trunc('milliseconds', now())"),
      });
      const view = await afterCampaignChange(trx, c.id, before);
      await recordEvent(trx, 'ad_campaign.payment_failed', c.account_id, view);
      return false;
    }
    return true;
  });
}

/** Every hour due before `now`, campaign by campaign (the test's clock, or the worker's). */
export async function deliverDue(db: Knex, now: Date): Promise<void> {
  const scope = sweepScope('ad_campaigns.account_id');
  const campaigns = await db('ad_campaigns').where({ status: 'active' }).whereNull('deleted_at').whereNotNull('launched_at')
    .whereRaw(scope.sql, scope.bindings).select('id', 'delivered_through', 'launched_at');
  for (const c of campaigns) {
    let next = c.delivered_through ? new Date(c.delivered_through).getTime() : ceilHour(new Date(c.launched_at).getTime());
    for (let i = 0; i < CATCH_UP_HOURS && next + HOUR <= now.getTime(); i++, next += HOUR) {
      if (!(await deliverCampaignHour(db, c.id, new Date(next)))) break;
    }
  }
}

export const deliverAdsTask = (db: Knex): Task => async () => { await deliverDue(db, clockNow()); };

const CEIL_HOUR = (column: string) => `(date_trunc('hour', ${column} - interval '1 microsecond') + interval '1 hour')`;
/** The start of a campaign's next undelivered hour (its first: launched_at rounded up to the hour). */
const NEXT_HOUR = `coalesce(c.delivered_through, ${CEIL_HOUR('c.launched_at')})`;

/** The end of the next hour in which a campaign in scope delivers. Hours outside a campaign's schedule deliver nothing,
 * so a clock does not stop at them: the run at the next hour that counts catches them up (deliverDue), and a campaign
 * past its ends_at no longer makes the clock stop every hour. */
export async function nextDeliveryAt(db: Knex): Promise<string | null> {
  const scope = sweepScope('c.account_id');
  const row = await db('ad_campaigns as c').where({ 'c.status': 'active' }).whereNull('c.deleted_at').whereNotNull('c.launched_at')
    .whereRaw(scope.sql, scope.bindings).whereRaw(`(c.ends_at is null or ${NEXT_HOUR} < c.ends_at)`)
    .first(db.raw(`min(greatest(${NEXT_HOUR}, coalesce(${CEIL_HOUR('c.starts_at')}, '-infinity'))) + interval '1 hour' as due`));
  return isoOrNull(row?.due);
}

export const adDeliverySweep: ClockSweep = {
  name: DELIVER_ADS,
  nextDueAt: nextDeliveryAt,
  run: async (db) => { await deliverDue(db, clockNow()); },
};
