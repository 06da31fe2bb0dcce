// Written by hand, not declared plain: stores nothing: it prices a swap at the current rate.
import type { Handler } from '../../generated/handler.js';
import { formatAmount } from '../payouts/index.js';
import { exchangeOf, rateText, tokenView } from './fx.js';

/** POST /swaps/quote: what a swap would exchange now, at the mid-market rate; writes nothing. */
export const createSwapQuote: Handler<'createSwapQuote'> = async ({ body }, ctx) => {
  const x = await exchangeOf(ctx.db, body);
  const out = formatAmount(x.amountOut, x.to.currency);
  return {
    object: 'swap_quote', from_token: tokenView(x.from), to_token: tokenView(x.to),
    amount_in: formatAmount(x.amountIn, x.from.currency), amount_out: out, amount_out_min: out,
    rate: rateText(x.rateE8), fee_bps: 0, estimated_duration_seconds: 0,
  };
};
