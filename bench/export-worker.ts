// One export job, run in a process of its own so that its peak RSS is the job's (bench/export.ts starts it): the
// worker's generate_export task (wiring/tasks.ts) on the export named by BENCH_EXPORT_ID. Prints one JSON line.
import { createKnex } from '../runtime/db.js';
import { taskList } from '../wiring/tasks.js';
import { GENERATE_EXPORT } from '../handlers/exports/generate.js';

const db = createKnex(process.env.DATABASE_URL!, 2);
const task = taskList(db)[GENERATE_EXPORT]!;
const baselineRssBytes = process.memoryUsage().rss;
const started = performance.now();
await task({ export_id: process.env.BENCH_EXPORT_ID }, {} as never);
const ms = performance.now() - started;
if (process.env.BENCH_EXPORT_MEMORY) console.error(process.memoryUsage());
await db.destroy();
// maxRSS is in kilobytes: the process's peak resident set, start-up included.
console.log(JSON.stringify({ ms, baselineRssBytes, peakRssBytes: process.resourceUsage().maxRSS * 1024 }));
