// The Swap fields only code can read from a row (spec/areas/swaps.yaml names them under columns: code): amounts in
// minor units shown as decimal strings of their currency, the rate over 10^8 with 8 decimals, tokens with the
// decimals of their currency.
import type { Swap } from '../../generated/types.js';
import type { SwapRow } from '../../generated/rows.js';
import { currencyDecimals } from '../../runtime/money.js';
import { formatAmount } from '../payouts/index.js';
import { rateText } from './fx.js';

const token = (symbol: string, currency: string): Swap['from_token'] => ({ symbol, currency, decimals: currencyDecimals(currency) });

export const swapFromToken = (row: SwapRow): Swap['from_token'] => token(row.from_symbol, row.from_currency);
export const swapToToken = (row: SwapRow): Swap['to_token'] => token(row.to_symbol, row.to_currency);
export const swapAmountIn = (row: SwapRow): string => formatAmount(Number(row.amount_in), row.from_currency);
/** Also amount_out_expected and amount_out_min: mid-market rates have no slippage. */
export const swapAmountOut = (row: SwapRow): string => formatAmount(Number(row.amount_out), row.to_currency);
export const swapRepaidAmount = (row: SwapRow): string => formatAmount(Number(row.repaid_amount), row.to_currency);
export const swapRate = (row: SwapRow): string => rateText(BigInt(row.rate_e8));
