import type { Handler } from '../../generated/handler.js';
import { currenciesOf, instant, reportRows, windowParts, windowValues } from './report-rows.js';

/** GET /financial_reports: an account's ledgers summed per currency and row type over [from, to). The runtime has
 * checked the account (404 when invisible, 403 without company:balance:read). Written, not plain: a report summed
 * over ledger rows, not a stored row. */
export const retrieveFinancialReport: Handler<'retrieveFinancialReport'> = async ({ query }, ctx) => {
  const parts = windowParts(query.from, query.to);
  const rows = await reportRows(ctx.db, windowValues(query.account_id, parts, query.currency));
  return {
    object: 'financial_report',
    account_id: query.account_id,
    from: new Date(instant(query.from)).toISOString(),
    to: new Date(instant(query.to)).toISOString(),
    currencies: currenciesOf(rows),
  };
};
