// A second API process on a test's database, for tests of what must hold across processes: `fork` it with
// DATABASE_URL set; it answers { url } over IPC once listening and stops on { type: 'stop' }.
import pino from 'pino';
import { createKnex } from '../../runtime/db.js';
import { startServer } from '../../runtime/server.js';
import { operations } from '../../generated/routes.js';
import { taskList, schedule } from '../../wiring/tasks.js';
import { extraRoutes, mounts } from '../../wiring/routes.js';

const url = process.env.DATABASE_URL!;
const db = createKnex(url, 3);
const server = await startServer({
  db, databaseUrl: url, operations, tasks: taskList(db), schedule, extraRoutes, mounts, port: 0, worker: false,
  logger: pino({ level: 'silent' }),
});
process.send!({ url: `${server.url}/api/v1` });
process.on('message', async (message: { type: string }) => {
  if (message.type !== 'stop') return;
  await server.close();
  await db.destroy();
  process.exit(0);
});
