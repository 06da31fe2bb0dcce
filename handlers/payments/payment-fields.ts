// Payment fields only code can say (spec/areas/payments.yaml table.columns): read from the payment's own row.
import type { Money, Payment } from '../../generated/types.js';
import { paymentNextAction } from '../shared/authentication-link.js';
import { money } from '../../runtime/money.js';
import { receiptUrl } from './receipts.js';

import type { PaymentRow } from '../../generated/rows.js';
import type { Row } from '../../runtime/plain/stored-resource.js';

const COLLECTED = new Set(['succeeded', 'refunded', 'partially_refunded']);

/** total minus the fees collected; zero until the payment is collected. */
export const amountAfterFees = (row: PaymentRow): Money =>
  money(COLLECTED.has(row.status) ? Number(row.total) - Number(row.fee_amount) : 0, row.currency);

/** The buyer's step while requires_action: the stored next_action with the step's url, made from the id. */
export const nextAction = (row: PaymentRow) => paymentNextAction(row) as Payment['next_action'];

/** The total in USD, whatever the payment's own currency. */
export const usdTotal = (row: PaymentRow): Money => money(Number(row.usd_total), 'usd');

/** Older pins' pdf_url (hidden at the head, entry 4): the link of the newest receipt generate_pdf made that still
 * downloads (`$pdf_url`: its id), null before any and once it expired. A hidden field's reader gets the row of its
 * own statement (runtime/plain/hidden-fields.ts), not the payment's. */
export const pdfUrl = (row: Row): string | null => (row.$pdf_url ? receiptUrl(row.$pdf_url) : null);
