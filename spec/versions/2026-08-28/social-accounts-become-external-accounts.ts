// Before external accounts (2026-08-28, entry 11) an engagement rule named its account social_account_id: the same
// sacc_ id, under the older name.
export function up(input: { body: Record<string, any> }): void {
  const rules = input.body.engagement?.rules;
  if (!Array.isArray(rules)) return;
  for (const rule of rules) {
    if (rule === null || typeof rule !== 'object' || !('social_account_id' in rule)) continue;
    rule.external_account_id = rule.social_account_id;
    delete rule.social_account_id;
  }
}
