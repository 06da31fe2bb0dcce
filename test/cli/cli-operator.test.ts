// `npm run cli -- operator`: the platform operator's switches (withdrawals, mandatory 3-D Secure challenges), set
// from the command line, recorded with who and when, and seen through the API.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomToken } from '../../runtime/ids.js';
import { startCliWorld, type CliWorld } from './cli-helpers.js';

const t = suite('npm run cli -- operator');
let w: CliWorld;
t.before(async () => { w = await startCliWorld(); });
t.after(async () => { await w.close(); });

async function account() {
  const made = await w.cli('create-account', '--title', `Operator ${randomToken(4)}`, '--json');
  assert.is(made.code, 0, made.stderr);
  return JSON.parse(made.stdout) as { account_id: string; api_key: string };
}

t('--withdrawals disable holds the funds (payouts refused) and enable releases them; each change is recorded', async () => {
  const { account_id: id, api_key: key } = await account();
  const off = await w.cli('operator', '--account', id, '--withdrawals', 'disable', '--operator', 'ada', '--json');
  assert.is(off.code, 0, off.stderr);
  const r = JSON.parse(off.stdout);
  assert.equal([r.withdrawals, r.undated_pending_reason, r.last_change.action, r.last_change.operator], ['disabled', 'withdrawals_disabled', 'withdrawals:disable', 'ada']);
  assert.ok(Math.abs(Date.parse(r.last_change.at) - Date.now()) < 60_000, r.last_change.at);
  const seen = await w.get(`/accounts/${id}`, key);
  assert.is(seen.body.payment_controls.undated_pending_reason, 'withdrawals_disabled');
  const method = await w.send('POST', '/payouts/methods', key, { account_id: id, supported_payout_method_id: 'podst_us_ach',
    nickname: 'Bank', fields: { account_number: '123456789', routing_number: '110000000' } });
  assert.is(method.status, 201, JSON.stringify(method.body));
  const refused = await w.send('POST', '/payouts', key, { account_id: id, payout_method_id: method.body.id, amount: '10.00' });
  assert.equal([refused.status, refused.body.error.param], [400, 'payment_controls.undated_pending_reason']);
  assert.match(refused.body.error.message, 'withdrawals disabled');

  const on = await w.cli('operator', '--account', id, '--withdrawals', 'enable', '--operator', 'grace');
  assert.is(on.code, 0, on.stderr);
  assert.match(on.stdout, new RegExp(`${id}: withdrawals enabled`));
  assert.match(on.stdout, /last change: withdrawals:enable by grace at /);
  assert.is((await w.get(`/accounts/${id}`, key)).body.payment_controls.undated_pending_reason, null);
  const log = await w.db('operator_actions').where({ account_id: id }).orderBy('created_at').select('operator', 'action');
  assert.equal(log, [{ operator: 'ada', action: 'withdrawals:disable' }, { operator: 'grace', action: 'withdrawals:enable' }]);
});

t('--three-d-secure-challenges enable lets the account choose mandate_challenge; disable refuses it again', async () => {
  const { account_id: id, api_key: key } = await account();
  const choose = () => w.send('PATCH', `/accounts/${id}`, key, { three_d_secure_policy: 'mandate_challenge' });
  const before = await choose();
  assert.equal([before.status, before.body.error?.param], [400, 'three_d_secure_policy']);
  const on = await w.cli('operator', '--account', id, '--three-d-secure-challenges', 'enable', '--operator', 'ada');
  assert.is(on.code, 0, on.stderr);
  assert.match(on.stdout, /mandatory 3-D Secure challenges enabled/);
  const chosen = await choose();
  assert.is(chosen.status, 200, JSON.stringify(chosen.body));
  assert.is(chosen.body.three_d_secure_policy, 'mandate_challenge');
  assert.is((await w.cli('operator', '--account', id, '--three-d-secure-challenges', 'disable', '--operator', 'ada')).code, 0);
  assert.equal([(await choose()).status], [400]);
  const shown = await w.cli('operator', '--account', id);
  assert.match(shown.stdout, /challenges disabled\n  last change: three-d-secure-challenges:disable by ada/);
});

t('mistakes exit 1 naming the option, and change nothing', async () => {
  const { account_id: id } = await account();
  const unnamed = await w.cli('operator', '--account', id, '--withdrawals', 'disable');
  assert.is(unnamed.code, 1);
  assert.match(unnamed.stderr, /--operator NAME is required/);
  const wrong = await w.cli('operator', '--account', id, '--withdrawals', 'off', '--operator', 'ada');
  assert.match(wrong.stderr, /--withdrawals must be disable or enable, not 'off'/);
  const both = await w.cli('operator', '--account', id, '--withdrawals', 'disable', '--three-d-secure-challenges', 'enable', '--operator', 'ada');
  assert.match(both.stderr, /use one of --withdrawals, --three-d-secure-challenges/);
  const nobody = await w.cli('operator', '--account', 'biz_nobody', '--withdrawals', 'disable', '--operator', 'ada');
  assert.equal([nobody.code, /no account biz_nobody/.test(nobody.stderr)], [1, true]);
  assert.is((await w.db('operator_actions').where({ account_id: id })).length, 0);
  assert.is((await w.db('accounts').where({ id }).first('undated_pending_reason')).undated_pending_reason, null);
});

t.run();
