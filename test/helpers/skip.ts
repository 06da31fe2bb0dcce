// A test that cannot run on this machine (no Redis, no Chromium) says so and is counted as skipped, not passed.
// uvu decides skips only when a test is declared (test.skip), so a test that finds out at run time calls
// `return skip(reason)`: the reason is printed in the file's output and the skip is recorded here, in the process
// running the file; the runner (test/helpers/uvu-entry.ts, or any other runner that imports this module) takes the
// file's skips with takeSkips() and moves that many tests from passed to skipped. Call it once, then return at once:
// a test that skipped and then failed would be counted twice.

const recorded: string[] = [];

/** Records that the running test skipped itself, and why; prints the reason. Return right after. */
export function skip(reason: string): void {
  recorded.push(reason);
  console.log(`  skipped: ${reason}`);
}

/** The skips recorded since the last call (a runner calls it after each file). */
export function takeSkips(): string[] {
  return recorded.splice(0);
}

/** The closing line every runner prints: the skipped count always shown, 0 included. */
export function closingLine({ passed, failed, skipped }: { passed: number; failed: number; skipped: number }): string {
  return `${passed} passed, ${failed} failed, ${skipped} skipped`;
}
