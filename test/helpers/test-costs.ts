// Which test files take longest (seconds on one worker, measured; `npm test` prints the slowest of each run), so
// that workers start them first. A file not named costs nothing here and runs after them, in name order.
const COSTS: [string, number][] = [
  ['fuzz/every-operation-2025.test.ts', 150], ['fuzz/every-operation-head.test.ts', 140], ['generator/versions.test.ts', 62],
  ['runtime/multi-process.test.ts', 45], ['runtime/crash-recovery.test.ts', 43], ['generator/plain.test.ts', 36],
  ['generator/generate.test.ts', 31], ['cli/cli.test.ts', 29], ['multi_host/multi-host.test.ts', 25],
  ['generator/load-spec.test.ts', 16], ['generator/gone.test.ts', 14],
];

export function knownCost(file: string): number {
  return COSTS.find(([name]) => file.endsWith(name))?.[1] ?? 0;
}
