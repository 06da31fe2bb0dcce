// GET /partners/businesses/{id} is the referring partner's alone (plain retrieve, own.only): the referred account's
// own team, whose scopes cover the account the row names, gets the 404 an unknown id gets.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeUser } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';

const t = suite('partner business: the partner alone reads it');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('the partner reads it; the referred account\'s owner, a stranger and an unknown id are 404 alike', async () => {
  const partner = await makeUser(app.db);
  const owner = await makeUser(app.db);
  const created = await app.request('POST', '/accounts', { token: owner.token, version: headVersion(), body: { title: 'Referred shop', affiliate_code: partner.user.username } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const business = await app.db('partner_businesses').where({ account_id: created.body.id }).first('id');
  const get = (token: string, id = business.id) => app.request('GET', `/partners/businesses/${id}`, { token, version: headVersion() });

  const mine = await get(partner.token);
  assert.is(mine.status, 200, JSON.stringify(mine.body));
  assert.is(mine.body.id, business.id);
  for (const [token, id] of [[owner.token, business.id], [(await makeUser(app.db)).token, business.id], [partner.token, 'pbiz_nope']]) {
    const res = await get(token, id);
    assert.is(res.status, 404);
    assert.is(res.body.error.message, `No such partner business: '${id}'`);
  }
});

t.run();
