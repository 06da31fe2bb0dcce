// Before account-owned experiments (2026-08-25, entry 28) a subject was one opaque subject_id: it is what
// subject[anonymous_id] is now, so a pinned caller keeps every subject's variant across the upgrade.
export function up(input: { body: Record<string, any> }): void {
  const b = input.body;
  if (b.subject_id === undefined) return;
  b.subject = { anonymous_id: b.subject_id };
  delete b.subject_id;
}
