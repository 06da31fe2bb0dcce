// The smoke suite's checks: each named, run one after another, counted for the closing "N passed, N failed" line.

export interface Checks {
  /** Runs one check; a thrown error fails it (and is printed), anything else passes it. */
  check(name: string, run: () => Promise<void> | void): Promise<boolean>;
  /** A failure found outside a named check (e.g. a seeding step that went wrong). */
  fail(name: string, message: string): void;
  readonly passed: number;
  readonly failed: number;
}

export function checks(): Checks {
  let passed = 0;
  let failed = 0;
  const fail = (name: string, message: string) => {
    failed += 1;
    console.log(`   FAIL  ${name}\n         ${message.split('\n').join('\n         ')}`);
  };
  return {
    async check(name, run) {
      try {
        await run();
        passed += 1;
        return true;
      } catch (e) {
        fail(name, (e as Error).message);
        return false;
      }
    },
    fail,
    get passed() { return passed; },
    get failed() { return failed; },
  };
}

/** Throws naming what differs. */
export function expect(ok: unknown, message: string): asserts ok {
  if (!ok) throw new Error(message);
}
