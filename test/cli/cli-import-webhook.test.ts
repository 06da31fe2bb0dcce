// `npm run cli -- operator import-webhook`: the operator's only way to bring an older (v2 or v5) subscription in.
// Its mistakes are refused naming the option, and a refused import leaves nothing behind (no subscription, no action).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomToken } from '../../runtime/ids.js';
import { startCliWorld, type CliWorld } from './cli-helpers.js';

const t = suite('npm run cli -- operator import-webhook');
let w: CliWorld;
t.before(async () => { w = await startCliWorld(); });
t.after(async () => { await w.close(); });

const importing = (...args: string[]) => w.cli('operator', 'import-webhook', ...args);

t('imports a v5 subscription and prints it; the API shows it as v5', async () => {
  const made = await w.cli('create-account', '--title', `Importer ${randomToken(4)}`, '--json');
  const { account_id: id, api_key: key } = JSON.parse(made.stdout);
  const run = await importing('--account', id, '--url', 'https://example.com/legacy', '--format', 'v5',
    '--events', 'payment.succeeded, payment.failed', '--description', 'From the old platform', '--operator', 'grace');
  assert.is(run.code, 0, run.stderr);
  const hook = /^Imported v5 webhook subscription (hook_\S+) for (\S+)$/m.exec(run.stdout);
  assert.ok(hook, run.stdout);
  assert.is(hook![2], id);
  assert.match(run.stdout, /events:\s+payment\.succeeded, payment\.failed/);
  assert.match(run.stdout, /secret:\s+whsec_\S+/);
  assert.match(run.stdout, new RegExp(`recorded:\\s+import-webhook:v5:${hook![1]} by grace at `));
  const got = await w.get(`/webhooks/${hook![1]}`, key);
  assert.equal([got.body.api_version, got.body.url, got.body.description, got.body.events],
    ['v5', 'https://example.com/legacy', 'From the old platform', ['payment.succeeded', 'payment.failed']]);
  const help = await w.cli('operator', 'import-webhook', '--help');
  assert.match(help.stdout, /operator import-webhook --account biz_\.\.\. --url URL --format v2\|v5/);
});

t('mistakes are refused naming what is wrong, and record nothing', async () => {
  const made = await w.cli('create-account', '--title', `Refused ${randomToken(4)}`, '--json');
  const { account_id: id } = JSON.parse(made.stdout);
  const base = ['--account', id, '--url', 'https://example.com/h', '--operator', 'ada'];
  const cases: [string[], RegExp][] = [
    [[...base, '--format', 'v1'], /--format must be v2 or v5, not 'v1' \(v1 subscriptions are created with POST \/webhooks\)/],
    [['--account', id, '--url', 'https://example.com/h', '--format', 'v2'], /--operator is required/],
    [[...base, '--format', 'v2', '--events', 'payment.succeeded,invoice.paid'], /unknown: invoice\.paid \(--events /],
    [[...base, '--format', 'v2', '--secret', 'not-a-secret'], /secret must be a Standard Webhooks secret/],
    [['--account', id, '--url', 'ftp://example.com/h', '--operator', 'ada', '--format', 'v2'], /url must use https.*\(--url ftp:\/\/example\.com\/h\)/],
    [['--account', 'biz_nosuchaccount', '--url', 'https://example.com/h', '--operator', 'ada', '--format', 'v5'], /No such account: 'biz_nosuchaccount'/],
  ];
  for (const [args, message] of cases) {
    const run = await importing(...args);
    assert.is(run.code, 1, `${args.join(' ')}: ${run.stdout}`);
    assert.match(run.stderr, message);
  }
  const shown = JSON.parse((await w.cli('operator', '--account', id, '--json')).stdout);
  assert.is(shown.last_change, null, 'a refused import records no operator action');
  assert.is(Number((await w.db('webhooks').where({ account_id: id }).count({ n: '*' }))[0].n), 0);
});

t.run();
