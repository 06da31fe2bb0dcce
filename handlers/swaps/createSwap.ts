// Written by hand, not declared plain: money: an exchange between two currencies in one ledger entry.
import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { query } from '../../runtime/request-db.js';
import { ledgerOf, PLATFORM, postEntry } from '../ledger/index.js';
import { ownBalanceOr, requireDestination } from '../deposits/index.js';
import { exchangeBetween, pairOf } from './fx.js';
import { resources } from '../../generated/resources.js';
import type { SwapRow } from '../../generated/rows.js';

// A swap moves the platform's fx_clearing in two currencies, one statement each: two swaps of one pair in opposite
// directions would lock those rows in opposite orders and deadlock. So a swap first takes a lock per currency, in
// the currencies' order (swaps of disjoint pairs run side by side), for the rest of its transaction.
const LOCK_CURRENCIES = `select pg_advisory_xact_lock(hashtext('fx_clearing:' || $1)), pg_advisory_xact_lock(hashtext('fx_clearing:' || $2))`;

// The to-currency's pending balance, locked: concurrent swaps repaying one negative balance are ordered by this row
// (as the balance trigger orders spenders), so together they never repay more than is owed.
const DEBT = `select amount from ledger_balances where ledger_id = $1 and currency = $2 and bucket = 'pending' for update`;

const INSERT = `insert into swaps (id, owner_id, ledger_id, status, from_symbol, to_symbol, from_currency, to_currency,
    amount_in, amount_out, repaid_amount, rate_e8)
  values ($1, $2, $3, 'completed', $4, $5, $6, $7, $8, $9, $10, $11) returning *`;

/**
 * POST /swaps: exchanges between two currencies of one balance at the mid-market rate, in one entry
 * (<swap_>:swapped) balanced in each currency against the platform's fx_clearing. The proceeds repay a negative
 * balance of to_token (its pending bucket below zero) first; the rest is available. With neither amount nor
 * to_amount, the whole negative balance is repaid. A balance that does not cover amount_in: 400 insufficient_funds.
 */
export const createSwap: Handler<'createSwap'> = async ({ body }, ctx) => {
  const owner = ownBalanceOr(ctx, body.account_id);
  await requireDestination(ctx, owner, 'crypto_wallet:trade', 'account_id');
  const ledger = await ledgerOf(ctx.db, owner);
  const { from, to } = await pairOf(ctx.db, body);
  await query(ctx.db, LOCK_CURRENCIES, [from.currency, to.currency].sort());
  const [pending] = await query<{ amount: string }>(ctx.db, DEBT, [ledger, to.currency]);
  const debt = Math.max(0, -Number(pending?.amount ?? 0));
  const repayingAll = body.amount === undefined && body.to_amount === undefined;
  if (repayingAll && debt === 0) {
    throw invalid(`The ${to.currency} balance is not negative: send amount or to_amount`, 'to_token');
  }
  const x = exchangeBetween(from, to, body, repayingAll ? debt : undefined);
  const repaid = Math.min(x.amountOut, debt);
  const id = newId('swap_');
  const [row] = await query<SwapRow>(ctx.db, INSERT, [id, owner, ledger, x.from.symbol, x.to.symbol, x.from.currency, x.to.currency,
    x.amountIn, x.amountOut, repaid, x.rateE8.toString()]);
  const platform = await ledgerOf(ctx.db, PLATFORM);
  await postEntry(ctx.db, `${id}:swapped`, x.from.currency, [
    { ledger, bucket: 'available', amount: -x.amountIn },
    { ledger: platform, bucket: 'fx_clearing', amount: x.amountIn },
  ], body.to_amount !== undefined || repayingAll ? 'to_amount' : 'amount');
  await postEntry(ctx.db, `${id}:swapped`, x.to.currency, [
    { ledger: platform, bucket: 'fx_clearing', amount: -x.amountOut },
    { ledger, bucket: 'pending', amount: repaid },
    { ledger, bucket: 'available', amount: x.amountOut - repaid },
  ]);
  return resources.Swap.view(row);
};
