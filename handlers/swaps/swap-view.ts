// Swap rows -> the Swap resource.
import type { Swap } from '../../generated/types.js';
import { currencyDecimals } from '../../runtime/money.js';
import { formatAmount } from '../payouts/index.js';
import { rateText } from './fx.js';
import type { Tables } from '../../generated/rows.js';

export type SwapRow = Tables['swaps'];

const token = (symbol: string, currency: string) => ({ symbol, currency, decimals: currencyDecimals(currency) });

export function swapView(row: SwapRow): Swap {
  const out = formatAmount(Number(row.amount_out), row.to_currency);
  return {
    id: row.id,
    object: 'swap',
    account_id: row.owner_id,
    status: row.status as Swap['status'], // written by this area only, with the API's values
    from_token: token(row.from_symbol, row.from_currency),
    to_token: token(row.to_symbol, row.to_currency),
    amount_in: formatAmount(Number(row.amount_in), row.from_currency),
    amount_out: out,
    amount_out_expected: out,
    amount_out_min: out,
    repaid_amount: formatAmount(Number(row.repaid_amount), row.to_currency),
    rate: rateText(BigInt(row.rate_e8)),
    tx_hashes: [],
    error: null,
    created_at: row.created_at,
  };
}
