// Before 2026-08-21 (entry 31) findings were optional when ending an experiment; a pinned caller that omits them gets
// this placeholder recorded instead of the 400 the latest version answers.
export const FINDINGS_PLACEHOLDER = 'No findings recorded.';

export function up(input: { body: Record<string, any> }): void {
  if (input.body.findings === undefined || input.body.findings === null) input.body.findings = FINDINGS_PLACEHOLDER;
}
