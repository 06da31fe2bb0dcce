// Before 2026-08-21 (entry 36) GET /apps took verified_apps_only: true narrowed to verified apps; false or omitted
// listed both, so only true becomes a verified filter.
export function up(input: { query: Record<string, unknown> }): void {
  const only = input.query.verified_apps_only;
  delete input.query.verified_apps_only;
  if (only === true) input.query.verified = true;
}
