// `npm run cli -- clock`: a sandbox clock made, advanced (run by the server's worker) and deleted from the command line.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomToken } from '../../runtime/ids.js';
import { startCliWorld, type CliWorld } from './cli-helpers.js';

const t = suite('npm run cli -- clock');
let w: CliWorld;
t.before(async () => { w = await startCliWorld({ worker: true }); });
t.after(async () => { await w.close(); });

const DAY = 86_400_000;

t('clock --start, --advance --wait and --delete, seen through the API', async () => {
  const made = await w.cli('create-account', '--title', `Clock ${randomToken(4)}`, '--json');
  assert.is(made.code, 0, made.stderr);
  const { account_id: accountId, api_key: key } = JSON.parse(made.stdout);

  const started = await w.cli('clock', '--account', accountId, '--start', '+1d', '--name', 'cli', '--json');
  assert.is(started.code, 0, started.stderr);
  const clock = JSON.parse(started.stdout);
  assert.match(clock.id, /^clk_/);
  assert.ok(Math.abs(Date.parse(clock.frozen_time) - (Date.now() + DAY)) < 60_000, clock.frozen_time);

  const moved = await w.cli('clock', '--account', accountId, '--advance', '+30d', '--wait', '60');
  assert.is(moved.code, 0, moved.stderr);
  const target = new Date(Date.parse(clock.frozen_time) + 30 * DAY).toISOString();
  assert.match(moved.stdout, new RegExp(`The clock ${clock.id} of ${accountId}: ${target}, ready`));
  const seen = await w.get(`/sandbox/clocks/${clock.id}`, key);
  assert.is(seen.status, 200);
  assert.is(seen.body.frozen_time, target);
  assert.is(seen.body.status, 'ready');

  const shown = await w.cli('clock', '--account', accountId);
  assert.match(shown.stdout, /\(ready\)/);
  const gone = await w.cli('clock', '--account', accountId, '--delete', 'yes');
  assert.is(gone.code, 0, gone.stderr);
  assert.is((await w.get(`/sandbox/clocks/${clock.id}`, key)).status, 404);
});

t('mistakes exit 1 naming the option, and change nothing', async () => {
  const made = await w.cli('create-account', '--title', `Clock ${randomToken(4)}`, '--json');
  const { account_id: accountId } = JSON.parse(made.stdout);
  const both = await w.cli('clock', '--account', accountId, '--start', '+1d', '--advance', '+2d');
  assert.is(both.code, 1);
  assert.match(both.stderr, /use one of --start, --advance, --delete/);
  const past = await w.cli('clock', '--account', accountId, '--start', '2020-01-01T00:00:00Z');
  assert.is(past.code, 1);
  assert.match(past.stderr, /in the past/);
  const none = await w.cli('clock', '--account', accountId, '--advance', '+1d');
  assert.is(none.code, 1);
  assert.match(none.stderr, /runs on no clock/);
  assert.is((await w.db('clocks').where({ account_id: accountId }).count({ n: '*' }))[0].n, 0);
});

t.run();
