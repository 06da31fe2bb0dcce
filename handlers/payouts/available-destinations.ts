// The rails an owner could add as a payout method, as pages of GET /payouts/methods carried them before 2026-07-30
// (entry 48 moved them to GET /payouts/supported_methods): the older payout_destination description of each rail,
// with its id (what createPayoutMethod took as destination_id then) and, given an amount, a quote.
import type { Knex } from 'knex';
import type { ListPayoutMethodsOutput } from '../../generated/types.js';
import { supportedPayoutMethods } from '../shared/reference-tables.js';
import { railOf, railView } from './rails.js';
import { parseAmount } from './payout-money.js';
import { quoteOf } from './payout-method-view.js';
import { destinationOf } from './payout-destination.js';

type Destination = NonNullable<ListPayoutMethodsOutput['available_destinations']>[number];

export async function availableDestinations(db: Knex, only: string | undefined, amount: string | undefined): Promise<Destination[]> {
  const rails = only ? [await railOf(db, only, 'destination_id')] : await supportedPayoutMethods(db);
  return rails.map((rail) => {
    const view = railView(rail);
    return {
      id: view.id, ...destinationOf(view), currency: view.currency, countries: view.countries,
      quote: amount === undefined ? null : quoteOf(rail, parseAmount(amount, rail.currency)),
    };
  });
}
