// Payout method rows -> the PayoutMethod resource (with its rail, fees, arrival estimates and, when asked, a quote).
import type { PayoutMethod, PayoutQuote } from '../../generated/types.js';
import { arrivalsOf, feeStructureOf, offers, railView, type Rail, type Speed } from './rails.js';
import { feeOf, formatAmount } from './payout-money.js';
import type { Tables } from '../../generated/rows.js';

export type PayoutMethodRow = Tables['payout_methods'];

const masked = (number: string) => `••${number.slice(-4)}`;

/** What a payout of `amount` (minor units of the rail's currency) would cost and deliver at each speed. */
export function quoteOf(rail: Rail, amount: number): PayoutQuote {
  const at = (speed: Speed) => {
    if (!offers(rail, speed)) return null;
    const fee = feeOf(amount, rail[`${speed}_fee_bps`], Number(rail[`${speed}_fee_fixed`]));
    return { fee_amount: formatAmount(fee, rail.currency), net_amount: formatAmount(Math.max(0, amount - fee), rail.currency) };
  };
  return {
    amount: formatAmount(amount, rail.currency), currency: rail.currency, exchange_rate: 1,
    min_limit: formatAmount(Number(rail.min_amount), rail.currency), max_limit: formatAmount(Number(rail.max_amount), rail.currency),
    standard: at('standard'), instant: at('instant'),
  };
}

export function payoutMethodView(row: PayoutMethodRow, rail: Rail, quoteAmount?: number): PayoutMethod {
  return {
    id: row.id,
    object: 'payout_method',
    account_id: row.account_id,
    // A bill-pay recipient is not the owner's own account: it names the recipient instead of a user.
    user_id: row.recipient_first_name === null ? row.user_id : null,
    supported_payout_method: railView(rail),
    nickname: row.nickname,
    is_default: row.is_default,
    status: row.status as PayoutMethod['status'], // text the area writes with the API's values
    destination_currency: row.destination_currency,
    account_reference: masked(row.destination_number),
    institution_name: row.institution_name,
    first_name: row.recipient_first_name,
    last_name: row.recipient_last_name,
    country: row.recipient_country,
    fee_structure: feeStructureOf(rail),
    estimated_arrival: arrivalsOf(rail),
    quote: quoteAmount === undefined ? null : quoteOf(rail, quoteAmount),
    // A method read as JSON beside its payout has its timestamps as text.
    created_at: new Date(row.created_at).toISOString(),
  };
}
