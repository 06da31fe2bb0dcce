// A row of the payments table, as the areas that hang off a payment (refunds, disputes, Resolution Center cases,
// memberships' renewals) read it. The payments area renders it (handlers/payments/payment-view.ts).
import type { Tables } from '../../generated/rows.js';

export type PaymentRow = Tables['payments'];
