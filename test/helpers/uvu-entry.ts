// Imports every test file with uvu deferred, then runs them all in one process.
import { pathToFileURL } from 'node:url';
import { relative } from 'node:path';

(globalThis as any).UVU_DEFER = 1;
const uvu = await import('uvu');
const queue = (globalThis as any).UVU_QUEUE as unknown[][];
let index = 0;
for (const file of process.argv.slice(2)) {
  (globalThis as any).UVU_INDEX = index++;
  queue.push([relative(process.cwd(), file)]);
  await import(pathToFileURL(file).href);
}
await uvu.exec(false);
// Test files close their servers; anything left (a stuck socket) must not hang the run.
setTimeout(() => process.exit(process.exitCode ?? 0), 500).unref();
