// Written by hand, not declared plain: answers the destination's address on every network, made on the first call only.
import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { decimalText } from '../../runtime/decimal-money.js';
import { addressesOf, DEPOSIT_MINIMUM, networks } from './crypto-deposits.js';
import { requireDestination } from './destination.js';

/**
 * POST /deposits: the destination's address on every supported network (made on its first call, the same after).
 * A version before 2026-08-21 may name one network (its top-level network): then that network only.
 */
export const createDeposit: Handler<'createDeposit'> = async ({ body }, ctx) => {
  await requireDestination(ctx, body.destination, 'company:balance:read', 'destination');
  const all = await networks(ctx.db);
  if (body.network !== undefined && !all.some((n) => n.id === body.network)) {
    throw invalid(`network must be one of ${all.map((n) => n.id).join(', ')}`, 'network');
  }
  const addresses = await addressesOf(ctx.db, body.destination, all);
  const minimum = decimalText({ amount: DEPOSIT_MINIMUM, decimals: 2 });
  return {
    object: 'deposit',
    account_id: body.destination,
    amount: body.amount ?? null,
    hosted_url: null,
    methods: {
      bank: null,
      crypto: all.filter((n) => body.network === undefined || n.id === body.network).map((n) => ({
        network: n.id, network_name: n.name, address: addresses.get(n.id)!, tokens: n.tokens,
        confirmations: n.confirmations, minimum_amount: minimum, minimum_currency: 'usd',
      })),
    },
  };
};
