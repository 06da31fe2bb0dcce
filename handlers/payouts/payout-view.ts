// Payout rows -> the Payout resource, and the one statement that reads a payout with its method.
import type { Knex } from 'knex';
import type { Payout } from '../../generated/types.js';
import { query } from '../../runtime/request-db.js';
import { formatAmount } from './payout-money.js';
import { payoutMethodView, type PayoutMethodRow } from './payout-method-view.js';
import { railOf } from './rails.js';
import type { Tables } from '../../generated/rows.js';

/** A payout's row (its speed and status: text this area writes with the API's values), `$method` its method's row as
 * JSON (to_jsonb). */
export type PayoutRow = Omit<Tables['payouts'], 'speed' | 'status'> & { speed: Payout['speed']; status: Payout['status'];
  $method: PayoutMethodRow };

/** The payout's columns, then its method's as "method.<column>". */
export const PAYOUT_WITH_METHOD = `select p.*, to_jsonb(m) as "$method" from payouts p join payout_methods m on m.id = p.payout_method_id`;

/** A list's query of payouts with their method as "$method", for the list to narrow (GET /payouts, GET /withdrawals). */
export const payoutsWithMethod = (db: Knex) => db('payouts as p').join('payout_methods as m', 'm.id', 'p.payout_method_id')
  .select('p.*', db.raw('to_jsonb(m) as "$method"'));

export async function findPayoutRow(db: Knex, id: string, lock = false): Promise<PayoutRow | undefined> {
  // A cofr_ id names the stablecoin conversion request a payout was before status v2.
  const column = id.startsWith('cofr_') ? 'conversion_request_id' : 'id';
  return (await query<PayoutRow>(db, `${PAYOUT_WITH_METHOD} where p.${column} = $1${lock ? ' for update of p' : ''}`, [id]))[0];
}

export async function payoutView(db: Knex, row: PayoutRow): Promise<Payout> {
  const method = row.$method;
  const rail = await railOf(db, method.supported_payout_method_id);
  const money = (minor: unknown, currency = row.currency) => formatAmount(Number(minor), currency);
  return {
    id: row.id,
    object: 'payout',
    account_id: row.account_id,
    user_id: row.user_id,
    status: row.status,
    status_detail: row.status_detail,
    speed: row.speed,
    currency: row.currency,
    amount: money(row.amount),
    fee_amount: money(row.fee_amount),
    markup_fee: money(row.markup_fee),
    net_amount: money(row.net_amount),
    destination_currency: row.destination_currency,
    destination_amount: money(row.destination_amount, row.destination_currency),
    // Display only: the stored exact decimal text as a JSON number (nothing computes with this value).
    exchange_rate: Number(row.exchange_rate),
    payout_method: payoutMethodView(method, rail),
    payout_request_id: row.payout_request_id,
    conversion_request_id: row.conversion_request_id,
    estimated_arrival: row.estimated_arrival_at,
    failure: row.failure_code === null ? null
      // a failure's code and message are written together (rail-reports.ts)
      : { return_code: row.failure_code, message: row.failure_message!, funds_returned_at: row.funds_returned_at },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
