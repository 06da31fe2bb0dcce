// Written by hand, not declared plain: a reference table filtered by country in memory, paged in its fixed order.
import type { Handler } from '../../generated/handler.js';
import { paginateArray } from '../../runtime/pagination.js';
import { supportedPayoutMethods } from '../shared/reference-tables.js';
import { railView } from './rails.js';

/** GET /payouts/supported_methods: the rails in their fixed order, those delivering to `country` when given. */
export const listSupportedPayoutMethods: Handler<'listSupportedPayoutMethods'> = async ({ query }, ctx) => {
  const rails = (await supportedPayoutMethods(ctx.db))
    .filter((r) => !query.country || r.countries.length === 0 || r.countries.includes(query.country));
  return paginateArray(rails.map(railView), query, ctx.defaultPageSize);
};
