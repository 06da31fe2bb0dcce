// `npm start`'s primary binds PORT itself before it starts anything (bin/listen-socket.ts): a port that is not a port
// number, or one already in use, stops the start at once with a message that says what to change.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { projectRoot } from '../../runtime/project-root.js';

const t = suite('ops: npm start and PORT');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

/** The primary from source (tsx) with `port`: its exit code and standard error. */
function start(port: string): Promise<{ code: number | null; stderr: string }> {
  const primary = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'bin', 'start.ts')], {
    env: { ...process.env, DATABASE_URL: app.databaseUrl, PORT: port, LOG_LEVEL: 'silent', RUN_WORKER: 'false' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  primary.stderr!.on('data', (chunk) => { stderr += chunk; });
  return new Promise((resolve) => primary.once('exit', (code) => resolve({ code, stderr })));
}

t('a PORT that is not a port number stops the start, naming it', async () => {
  const { code, stderr } = await start('abc');
  assert.is(code, 1);
  assert.match(stderr, 'PORT must be a port number (0 to 65535), not "abc"');
});

t('a port already in use stops the start at once, saying so', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as { port: number };
  try {
    const { code, stderr } = await start(String(port));
    assert.is(code, 1);
    assert.match(stderr, `Port ${port} is already in use; set PORT to another one.`);
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});

t.run();
