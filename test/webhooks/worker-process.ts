// A background worker alone in its own process, so a test can kill it outright (SIGKILL) mid-delivery.
import { run } from 'graphile-worker';
import { createKnex } from '../../runtime/db.js';
import { taskList } from '../../handlers/tasks.js';

const url = process.env.WORKER_DATABASE_URL!;
const db = createKnex(url, 4);
await run({ connectionString: url, taskList: taskList(db), concurrency: 2, pollInterval: 50, noHandleSignals: true, crontab: '' });
process.send?.('ready');
