// The official client's status words (versions before 2026-07-30): one word for the side a case waits on or, once
// closed, for its result. The one table both directions read: the older shape (spec/versions/2026-07-30/
// resolution-center-native.ts) and the older list filter statuses[] (listResolutionCenterCases.ts).

/** Each word: the status it stands for and, for a closed case, the outcomes. The client's merchant_info_needed and
 * customer_info_needed have no case here (the platform never asks for information), so they match nothing. */
export const LEGACY_STATUS: Record<string, { status: string; outcomes?: string[] }> = {
  merchant_response_needed: { status: 'awaiting_merchant' },
  customer_response_needed: { status: 'awaiting_customer' },
  under_platform_review: { status: 'awaiting_platform' },
  // The buyer won what a refund or a chargeback gave back; a case the platform ruled on, or the merchant closed
  // after answering, the merchant won.
  customer_won: { status: 'closed', outcomes: ['refunded', 'disputed'] },
  merchant_won: { status: 'closed', outcomes: ['merchant_won', 'closed'] },
  customer_withdrew: { status: 'closed', outcomes: ['withdrawn'] },
};

export const legacyStatusOf = (status: string, outcome: string | null): string =>
  Object.entries(LEGACY_STATUS).find(([, w]) => w.status === status && (!w.outcomes || w.outcomes.includes(outcome!)))![0];
