// Before 2026-07-30 (entry 52) a dispute alert had the shape the official client shows: alert_type, charge_for_alert.
const ALERT_TYPES: Record<string, string> = { early_fraud_warning: 'fraud', dispute_alert: 'dispute', rapid_dispute_resolution: 'dispute_rdr' };

export function down(a: any): any {
  return {
    id: a.id, alert_type: ALERT_TYPES[a.type], amount: a.amount, currency: a.amount.currency, charge_for_alert: a.fee_charged,
    payment: a.payment_id ? { id: a.payment_id } : null, dispute: a.dispute_id ? { id: a.dispute_id } : null,
    transaction_date: null, created_at: a.created_at,
  };
}
