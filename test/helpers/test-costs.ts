// Which test files take longest (seconds on one worker, measured; `npm test` prints the slowest of each run), so
// that workers start them first. A file not named costs nothing here and runs after them, in name order.
const COSTS: [string, number][] = [
  ['fuzz/every-operation-head.test.ts', 150], ['fuzz/every-operation-2025.test.ts', 120], ['generator/versions.test.ts', 124], ['generator/gone.test.ts', 90], ['generator/generate.test.ts', 80],
  ['generator/plain.test.ts', 70], ['runtime/multi-process.test.ts', 45], ['runtime/crash-recovery.test.ts', 43],
  ['generator/catalogues.test.ts', 42], ['cli/cli.test.ts', 29],
];

export function knownCost(file: string): number {
  return COSTS.find(([name]) => file.endsWith(name))?.[1] ?? 0;
}
