// The closing line of `npm test` is honest: a test that skipped itself at run time (test/helpers/skip.ts) is counted
// skipped with its reason, not passed; a test declared skipped is counted skipped; a failure is a failure whatever
// else the file holds. The file is run by the same worker `npm test` uses (test/helpers/uvu-entry.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../../runtime/project-root.js';
import type { FileRun } from '../helpers/uvu-entry.js';
import { fileCounts } from '../helpers/uvu-counts.js';
import { closingLine } from '../helpers/skip.js';

const t = suite('test runner: honest counts');

/** Runs `file` in a test worker as test/run.ts does, and returns what the worker sent back. */
async function runInWorker(file: string): Promise<FileRun> {
  const child = fork(join(projectRoot, 'test/helpers/uvu-entry.ts'), [], {
    env: { ...process.env, FORCE_COLOR: '0' }, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    return await new Promise<FileRun>((resolve, reject) => {
      child.on('message', (m: { ready?: true } & Partial<FileRun>) => {
        if (m.ready) child.send({ run: file });
        else resolve(m as FileRun);
      });
      child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before it answered`)));
    });
  } finally {
    if (child.connected) child.send({ done: true });
  }
}

t('a file with a pass, a skip at run time, a declared skip and a failure: 1 passed, 1 failed, 2 skipped', async () => {
  const run = await runInWorker(join(projectRoot, 'test/helpers/counts-fixture.ts'));
  assert.equal(run.skips, ['nothing here to run against']);
  assert.match(run.output, '  skipped: nothing here to run against', 'the reason is printed in the file\'s output');
  assert.equal(fileCounts(run.output, run.skips), { total: 4, passed: 1, failed: 1, skipped: 2 });
  assert.is(closingLine(fileCounts(run.output, run.skips)), '1 passed, 1 failed, 2 skipped');
});

t('the skipped count is always printed, 0 included', () => {
  assert.is(closingLine({ passed: 3, failed: 0, skipped: 0 }), '3 passed, 0 failed, 0 skipped');
});

t.run();
