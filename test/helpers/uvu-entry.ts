// One test worker (test/run.ts starts several): asks the parent for a file, runs it with uvu, sends back what it
// printed, and asks again until the parent has no more. A file's output goes back whole, so the parent prints each
// file's block uninterrupted whatever the other workers are doing.
import { pathToFileURL } from 'node:url';
import { relative } from 'node:path';
import { takeSkips } from './skip.js';

/** A file's output, how long it took, and the reasons of the tests that skipped themselves (uvu counted them passed). */
export interface FileRun { file: string; output: string; ms: number; skips: string[] }
type FromParent = { run: string } | { done: true };

let captured = '';
process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  captured += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
  const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
  callback?.();
  return true;
}) as typeof process.stdout.write;

(globalThis as any).UVU_DEFER = 1;
const uvu = await import('uvu');
const queue = (globalThis as any).UVU_QUEUE as unknown[][];
// Test files run handlers and runtime code that reads the API's definition, as the server does: the worker is
// composed (wiring/compose.ts) before it runs any of them.
await import('../../wiring/compose.js');

async function runFile(file: string): Promise<FileRun> {
  const started = performance.now();
  captured = '';
  queue.length = 0;
  (globalThis as any).UVU_INDEX = 0;
  queue.push([relative(process.cwd(), file)]);
  takeSkips();
  try {
    await import(pathToFileURL(file).href);
    await uvu.exec(false);
  } catch (e) {
    captured += `\n   FAIL  ${file} could not run: ${(e as Error).stack ?? e}\n\n  Total:     1\n  Passed:    0\n  Skipped:   0\n`;
    process.exitCode = 1;
  }
  return { file, output: captured, ms: performance.now() - started, skips: takeSkips() };
}

process.on('message', async (message: FromParent) => {
  if ('done' in message) {
    process.disconnect();
    // Test files close their servers; anything left (a stuck socket) must not hang the run.
    setTimeout(() => process.exit(process.exitCode ?? 0), 500).unref();
    return;
  }
  process.send!(await runFile(message.run));
});
process.send!({ ready: true });
