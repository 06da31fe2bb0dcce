// Before 2026-08-07 (entry 45) requested_information was nested: entries grouped by what answers them.
export function down(verification: any): any {
  const entries: any[] = verification.requested_information ?? [];
  verification.requested_information = {
    documents: entries.filter((e) => e.answer_type === 'file'),
    fields: entries.filter((e) => e.answer_type !== 'file'),
  };
  return verification;
}
