// Before native setup intents (2026-08-25) a setup intent embedded its account, checkout configuration, member and
// payment method as objects (the member and payment method foreign keys and last_setup_error are removed by the
// change's field_added instructions).
export function down(intent: any): any {
  intent.company = intent.account_id ? { id: intent.account_id } : null;
  intent.checkout_configuration = intent.checkout_configuration_id ? { id: intent.checkout_configuration_id } : null;
  intent.member = intent.member_id ? { id: intent.member_id } : null;
  intent.payment_method = intent.payment_method_id ? { id: intent.payment_method_id } : null;
  delete intent.account_id;
  delete intent.checkout_configuration_id;
  return intent;
}
