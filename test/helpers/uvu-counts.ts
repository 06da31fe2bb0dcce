// What one file's run counts, from uvu's summary (which test/helpers/uvu-entry.ts sends back) and the file's skips
// at run time (test/helpers/skip.ts). uvu's Total is the tests that ran, a test that skipped itself among them (uvu
// counted it passed: it returned); its Skipped is those declared test.skip, which did not run.

export interface Counts { total: number; passed: number; failed: number; skipped: number }

const count = (output: string, label: string): number => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(output)?.[1] ?? 0);

/** The file's counts: a test that skipped itself moves from passed to skipped. */
export function fileCounts(output: string, skips: readonly string[]): Counts {
  const ran = count(output, 'Total');
  const passed = count(output, 'Passed');
  const declared = count(output, 'Skipped');
  const selfSkipped = Math.min(skips.length, passed);
  return { total: ran + declared, passed: passed - selfSkipped, failed: ran - passed, skipped: declared + selfSkipped };
}
