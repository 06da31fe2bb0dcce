import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomToken } from '../../runtime/ids.js';
import { startCliWorld, field, type CliWorld } from './cli-helpers.js';

const t = suite('npm run cli');
let w: CliWorld;
t.before(async () => { w = await startCliWorld(); });
t.after(async () => { await w.close(); });

const handle = () => `cli${randomToken(8).toLowerCase()}`;
const count = async (table: string) => Number((await w.db(table).count({ n: '*' }))[0].n);

t('create-user and create-account --owner: both printed secrets authenticate, and the user owns the account', async () => {
  const username = handle();
  const user = await w.cli('create-user', '--username', username, '--email', `${username}@example.com`, '--name', 'Cli Owner');
  assert.is(user.code, 0, user.stderr);
  const userId = /Created user (user_\w+) \(/.exec(user.stdout)![1];
  const token = field(user.stdout, 'user token');
  assert.match(token, /^utok_/);
  assert.match(field(user.stdout, 'user token id'), /^utk_/);

  const acct = await w.cli('create-account', '--title', 'Cli Owner Shop', '--owner', username, '--email', 'shop@example.com', '--country', 'de');
  assert.is(acct.code, 0, acct.stderr);
  const accountId = /Created account (biz_\w+) \(Cli Owner Shop\)/.exec(acct.stdout)![1];
  const key = field(acct.stdout, 'API key');
  assert.match(key, /^sk_/);
  assert.match(acct.stdout, new RegExp(`owner:\\s+${userId} \\(${username}\\)`));
  assert.match(acct.stdout, /API key id:\s+apik_\w+ \(role admin\)/);

  const me = await w.get('/accounts/me', key);
  assert.is(me.status, 200);
  assert.is(me.body.id, accountId);
  assert.is(me.body.title, 'Cli Owner Shop');
  assert.is(me.body.email, 'shop@example.com');
  assert.is(me.body.country, 'DE');

  const byToken = await w.get(`/accounts/${accountId}`, token);
  assert.is(byToken.status, 200);
  assert.is(byToken.body.id, accountId);
  const member = await w.db('team_members').where({ account_id: accountId, user_id: userId }).first();
  assert.is(member.role, 'owner');
  assert.is(member.status, 'active');
  const stored = await w.db('users').where({ id: userId }).first();
  assert.is(stored.name, 'Cli Owner');
});

t('--json prints one object with every id and secret; without --owner the account has no team member', async () => {
  const run = await w.cli('create-account', '--title', 'Json Shop', '--json');
  assert.is(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.equal(Object.keys(out).sort(), ['account_id', 'api_key', 'api_key_id', 'client_id', 'owner_user_id', 'owner_username', 'role', 'title']);
  assert.match(out.client_id, /^client_/);
  assert.match(out.account_id, /^biz_/);
  assert.match(out.api_key, /^sk_/);
  assert.is(out.role, 'admin');
  assert.is(out.owner_user_id, null);
  const key = await w.db('api_keys').where({ id: out.api_key_id }).first();
  assert.is(key.account_id, out.account_id);
  assert.is(key.role, 'admin');
  assert.is(await w.db('team_members').where({ account_id: out.account_id }).first(), undefined);
  const me = await w.get('/accounts/me', out.api_key);
  assert.is(me.status, 200);
  assert.is(me.body.id, out.account_id);
  assert.is(me.body.client_id, out.client_id, 'the account\'s own key sees the client id the CLI printed');
});

t('create-key --role viewer: the key reads the account but may not update it', async () => {
  const acct = JSON.parse((await w.cli('create-account', '--title', 'Viewer Shop', '--json')).stdout);
  const run = await w.cli('create-key', '--account', acct.account_id, '--role', 'viewer', '--json');
  assert.is(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.is(out.account_id, acct.account_id);
  assert.is(out.role, 'viewer');
  assert.is.not(out.api_key, acct.api_key);
  assert.is((await w.get('/accounts/me', out.api_key)).status, 200);
  const patch = await w.send('PATCH', `/accounts/${acct.account_id}`, out.api_key, { title: 'Renamed' });
  assert.is(patch.status, 403);
  assert.is(patch.body.error.type, 'permission_denied');
  assert.is((await w.send('PATCH', `/accounts/${acct.account_id}`, acct.api_key, { title: 'Renamed' })).status, 200);
});

t('create-token works by username and by user id; each token is new and authenticates', async () => {
  const username = handle();
  const user = JSON.parse((await w.cli('create-user', '--username', username, '--email', `${username}@example.com`, '--json')).stdout);
  const acct = JSON.parse((await w.cli('create-account', '--title', 'Token Shop', '--owner', user.user_id, '--json')).stdout);
  assert.is(acct.owner_user_id, user.user_id);
  const [byName, byId] = await Promise.all([
    w.cli('create-token', '--user', username, '--json'),
    w.cli('create-token', '--user', user.user_id, '--json'),
  ]);
  assert.is(byName.code, 0, byName.stderr);
  assert.is(byId.code, 0, byId.stderr);
  const tokens = [user.user_token, JSON.parse(byName.stdout).user_token, JSON.parse(byId.stdout).user_token];
  assert.is(new Set(tokens).size, 3);
  for (const token of tokens) {
    const res = await w.get(`/accounts/${acct.account_id}`, token);
    assert.is(res.status, 200);
  }
  assert.is(Number((await w.db('user_tokens').where({ user_id: user.user_id }).count({ n: '*' }))[0].n), 3);
});

t('a duplicate username exits 1 with a message naming the option, and creates nothing', async () => {
  const username = handle();
  assert.is((await w.cli('create-user', '--username', username, '--email', `${username}@example.com`)).code, 0);
  const users = await count('users');
  const again = await w.cli('create-user', '--username', username, '--email', `other-${username}@example.com`);
  assert.is(again.code, 1);
  assert.is(again.stdout, '');
  assert.match(again.stderr, `error: A user with this username already exists (--username ${username})`);
  assert.is(await count('users'), users);
});

t('an unknown owner exits 1 and leaves no account behind', async () => {
  const accounts = await count('accounts');
  const run = await w.cli('create-account', '--title', 'Orphan Shop', '--owner', 'nobody-here');
  assert.is(run.code, 1);
  assert.match(run.stderr, "error: No user with username 'nobody-here' (--owner)");
  assert.is(await count('accounts'), accounts);
});

t('unknown accounts and users are errors for create-key and create-token', async () => {
  const key = await w.cli('create-key', '--account', 'biz_missing');
  assert.is(key.code, 1);
  assert.match(key.stderr, "error: No account with id 'biz_missing'");
  const token = await w.cli('create-token', '--user', 'ghost');
  assert.is(token.code, 1);
  assert.match(token.stderr, "No user with username 'ghost' (--user)");
});

t('usage mistakes exit 1 with a message; --help exits 0', async () => {
  const [help, none, unknown, missing, extra, role, country, email] = await Promise.all([
    w.cli('--help'),
    w.cli(),
    w.cli('create-shop'),
    w.cli('create-user', '--email', 'a@example.com'),
    w.cli('create-key', '--account', 'biz_x', '--colour', 'red'),
    w.cli('create-account', '--title', 'Role Shop', '--role', 'owner'),
    w.cli('create-account', '--title', 'Country Shop', '--country', 'USA'),
    w.cli('create-user', '--username', 'mail', '--email', 'not-an-address'),
  ]);
  assert.is(help.code, 0);
  for (const command of ['create-account', 'create-user', 'create-token', 'create-key', '--json']) assert.match(help.stdout, command);
  assert.is(none.code, 1);
  assert.match(none.stderr, 'Usage: npm run cli');
  assert.is(unknown.code, 1);
  assert.match(unknown.stderr, "error: unknown command 'create-shop'");
  assert.is(missing.code, 1);
  assert.match(missing.stderr, 'error: --username is required');
  assert.is(extra.code, 1);
  assert.match(extra.stderr, "Unknown option '--colour'");
  assert.is(role.code, 1);
  assert.match(role.stderr, "--role must be one of admin, moderator, sales_manager, viewer, not 'owner'");
  assert.is(country.code, 1);
  assert.match(country.stderr, '--country must be an ISO 3166-1 alpha-2 code');
  assert.is(email.code, 1);
  assert.match(email.stderr, "--email must be an e-mail address, not 'not-an-address'");
});

t.run();
