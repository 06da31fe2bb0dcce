// Before native setup intents (2026-08-25) a setup intent embedded the member and the payment method as objects
// (the foreign-key fields and last_setup_error are removed by the change's field_added instructions); only webhook
// payloads of older pins still show this shape.
export function down(intent: any): any {
  intent.member = intent.member_id ? { id: intent.member_id } : null;
  intent.payment_method = intent.payment_method_id ? { id: intent.payment_method_id } : null;
  return intent;
}
