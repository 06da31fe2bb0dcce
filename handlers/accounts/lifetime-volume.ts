// An account's lifetime volume (accounts.lifetime_volume_usd, USD cents) and the milestone rewards it earns, kept like
// the ledger's balances: moved in the transaction that moves the money, so reading it costs one row whatever the
// history. The volume belongs to the selling account (the payment's account_id; a connected account's sales are its
// own and do not roll up to its platform). Each payment remembers what it counts (payments.volume_usd): its usd_total
// once settled, less the share of it the buyer got back (settled refunds, chargebacks lost or closed unanswered),
// rounded half up in integer arithmetic (usd_total was converted exactly at creation: handlers/shared/fx-rates.ts).
// A change moves the account by the difference, so retried or repeated calls move nothing more.
//
// Lock order: the caller holds the payment row; this locks the account row; the caller then posts its entries with
// the rewards' in one statement (the balance rows last), the order every other writer of an account row keeps.
//
// Rewards are paid in the crossing transaction, not by a job: the settlement that takes the volume to or past a
// milestone's threshold inserts its reward_payouts row (primary key account_id, milestone_id: once, ever) and the
// reward's ledger entry (from the platform's fee revenue to the account's available balance). Two settlements of one
// account wait on the account row, so the second sees the first's committed row and pays nothing; a retried
// settlement finds the payment settled and does nothing at all. A reward once paid stays paid (a later refund that
// takes the volume back under the threshold takes nothing back; crossing again pays nothing).
import type { Knex } from 'knex';
import type { EventType } from '../../generated/spec-data.js';
import { query } from '../../runtime/request-db.js';
import { money } from '../../runtime/money.js';
import { ledgerOf, PLATFORM } from '../ledger/index.js';
import type { Entry } from '../ledger/index.js';
import { rewardMilestones } from '../shared/reference-tables.js';

type Emit = (type: EventType, accountId: string | null, data: unknown) => Promise<void>;

// What the buyer got back of the payment (refunds and lost or unanswered chargebacks, at most its total), and the
// volume it then counts: usd_total less round_half_up(usd_total * back / total). $2: the payment is settling now
// (its settlement_time_at is written later in the same transaction).
const RECOUNT = `with p as (
    select q.id, q.account_id, q.volume_usd,
      case when q.total = 0 or not ($2::boolean or q.settlement_time_at is not null) then 0
        else q.usd_total - (2 * q.usd_total * least(q.total, q.refunded_amount + coalesce((select sum(d.amount) from disputes d
          where d.payment_id = q.id and d.status in ('lost', 'closed'))::bigint, 0)) + q.total) / (2 * q.total) end as counted
    from payments q where q.id = $1),
  counted as (update payments set volume_usd = p.counted from p where payments.id = p.id and p.counted <> p.volume_usd
    returning p.account_id, p.counted - p.volume_usd as delta)
  update accounts a set lifetime_volume_usd = a.lifetime_volume_usd + c.delta from counted c where a.id = c.account_id
  returning a.id, a.lifetime_volume_usd::text as volume, c.delta::text as delta`;

// Every milestone the volume reached without a payout yet: recorded paid, once (the primary key decides).
const PAY = `insert into reward_payouts (account_id, milestone_id, status, paid_at)
  select $1, m.id, 'paid', date_trunc('milliseconds', clock_now()) from reward_milestones m where m.threshold_usd <= $2::bigint
  on conflict (account_id, milestone_id) do nothing
  returning milestone_id, to_char(paid_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as paid_at`;

async function recount(db: Knex, paymentId: string, settling: boolean) {
  const [moved] = await query<{ id: string; volume: string; delta: string }>(db, RECOUNT, [paymentId, settling]);
  return moved;
}

/** A payment settling (handlers/payments/settlement.ts, before it posts): its usd_total joins its seller's volume,
 * and each milestone this takes the seller to is paid. The rewards' entries, for the caller to post with its own. */
export async function countSettledVolume(db: Knex, paymentId: string, emit: Emit): Promise<Entry[]> {
  const moved = await recount(db, paymentId, true);
  if (!moved || BigInt(moved.delta) <= 0n) return [];
  const paid = await query<{ milestone_id: string; paid_at: string }>(db, PAY, [moved.id, moved.volume]);
  if (paid.length === 0) return [];
  const milestones = new Map((await rewardMilestones(db)).map((m) => [m.id as string, m]));
  const account = await ledgerOf(db, moved.id);
  const platform = await ledgerOf(db, PLATFORM);
  const entries: Entry[] = [];
  for (const p of paid) {
    const m = milestones.get(p.milestone_id)!;
    const reward = Number(m.reward_usd);
    entries.push({ id: `${moved.id}:${m.id}:reward`, currency: 'usd', postings: [
      { ledger: platform, bucket: 'fees', amount: -reward },
      { ledger: account, bucket: 'available', amount: reward },
    ] });
    await emit('account.reward_paid', moved.id, {
      account_id: moved.id, milestone_id: m.id, title: m.title, threshold: money(Number(m.threshold_usd)),
      amount: money(reward), lifetime_volume: money(Number(moved.volume)), paid_at: p.paid_at,
    });
  }
  return entries;
}

/** Money of a settled payment went back to the buyer (a refund settled, a chargeback lost or closed unanswered;
 * called after the refund or dispute row is written): the seller's volume drops by what the payment no longer counts.
 * Nothing is paid or taken back here. */
export async function recountVolume(db: Knex, paymentId: string): Promise<void> {
  await recount(db, paymentId, false);
}
