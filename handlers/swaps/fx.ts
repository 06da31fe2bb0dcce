// Swaps at the sandbox's mid-market rates (the one rate table, handlers/shared/fx-rates.ts: each currency's value in
// USD as an integer over 10^8) and exact conversions in BigInt arithmetic. A pair's rate (to per from) is rounded
// half-even to 8 decimals; conversions with it round in the platform's favour: an amount out is rounded down, an
// amount in is rounded up.
import type { Knex } from 'knex';
import { invalid } from '../../runtime/errors.js';
import { currencyDecimals } from '../../runtime/money.js';
import { RATE_SCALE, usdRates } from '../shared/fx-rates.js';
import { decimalText } from '../../runtime/decimal-money.js';
import { parseAmount } from '../payouts/index.js';

/** Stablecoins are held and credited as USD, 1:1. */
const STABLECOINS = new Set(['USDC', 'USDT']);

export interface Token { symbol: string; currency: string; decimals: number; usdRateE8: bigint }

export async function tokenOf(db: Knex, text: string, param: string): Promise<Token> {
  const symbol = text.toUpperCase();
  const currency = STABLECOINS.has(symbol) ? 'usd' : symbol.toLowerCase();
  const rates = await usdRates(db);
  const usdRateE8 = rates.get(currency);
  if (usdRateE8 === undefined) {
    throw invalid(`${param} must be one of ${[...[...rates.keys()].map((c) => c.toUpperCase()), ...STABLECOINS].join(', ')}`, param);
  }
  return { symbol, currency, decimals: currencyDecimals(currency), usdRateE8 };
}

/** n / d rounded half to even (d > 0, n >= 0). */
export function divideHalfEven(n: bigint, d: bigint): bigint {
  const q = n / d;
  const twice = (n % d) * 2n;
  return twice > d || (twice === d && q % 2n === 1n) ? q + 1n : q;
}

const divideUp = (n: bigint, d: bigint): bigint => (n + d - 1n) / d;
const pow10 = (e: number) => 10n ** BigInt(e);

/** to per from, times 10^8, half-even. */
export const pairRateE8 = (from: Token, to: Token): bigint => divideHalfEven(from.usdRateE8 * RATE_SCALE, to.usdRateE8);

/** What `amountIn` minor units of from give in to's minor units at the rate, rounded down. */
export const amountOut = (amountIn: number, rateE8: bigint, from: Token, to: Token): number =>
  Number((BigInt(amountIn) * rateE8 * pow10(to.decimals)) / (RATE_SCALE * pow10(from.decimals)));

/** What from must give, in its minor units, for `out` minor units of to at the rate, rounded up. */
export const amountIn = (out: number, rateE8: bigint, from: Token, to: Token): number =>
  Number(divideUp(BigInt(out) * RATE_SCALE * pow10(from.decimals), rateE8 * pow10(to.decimals)));

export const rateText = (rateE8: bigint): string => decimalText({ amount: Number(rateE8), decimals: 8 });
export const tokenView = (t: Token) => ({ symbol: t.symbol, currency: t.currency, decimals: t.decimals });

export interface Exchange { from: Token; to: Token; rateE8: bigint; amountIn: number; amountOut: number }

export interface SwapAmounts { from_token: string; to_token: string; amount?: string; to_amount?: string }

/** The request's two tokens, refused when both are held in one currency; a 400 when amount and to_amount are both sent. */
export async function pairOf(db: Knex, body: SwapAmounts): Promise<{ from: Token; to: Token }> {
  if (body.amount !== undefined && body.to_amount !== undefined) throw invalid('Send amount or to_amount, not both', 'to_amount');
  const from = await tokenOf(db, body.from_token, 'from_token');
  const to = await tokenOf(db, body.to_token, 'to_token');
  if (from.currency === to.currency) throw invalid(`from_token and to_token are both held in ${to.currency}; a swap needs two currencies`, 'to_token');
  return { from, to };
}

export async function exchangeOf(db: Knex, body: SwapAmounts): Promise<Exchange> {
  const { from, to } = await pairOf(db, body);
  return exchangeBetween(from, to, body);
}

/** The amounts exchanged between two tokens: amount in, to_amount out, else `out` (a whole negative balance). */
export function exchangeBetween(from: Token, to: Token, body: SwapAmounts, out?: number): Exchange {
  const rateE8 = pairRateE8(from, to);
  if (body.amount !== undefined) {
    const inMinor = parseAmount(body.amount, from.currency, 'amount');
    const outMinor = amountOut(inMinor, rateE8, from, to);
    if (outMinor <= 0) throw invalid(`amount is too small: it would give nothing in ${to.symbol}`, 'amount');
    return { from, to, rateE8, amountIn: inMinor, amountOut: outMinor };
  }
  const outMinor = body.to_amount !== undefined ? parseAmount(body.to_amount, to.currency, 'to_amount') : out;
  if (outMinor === undefined) throw invalid('Send amount or to_amount', 'amount');
  if (outMinor <= 0) throw invalid('to_amount must be more than zero', 'to_amount');
  return { from, to, rateE8, amountIn: amountIn(outMinor, rateE8, from, to), amountOut: outMinor };
}
