// migrations/585_webhook_legacy_formats.ts on a database written before it: a v2 subscription that kept a pin (shown,
// yet without effect on its v2 payloads) is unpinned, v5 becomes a format a row may hold, and a legacy format can
// no longer be pinned.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { down, up } from '../../migrations/585_webhook_legacy_formats.js';

const t = suite('webhooks: migration 585 (legacy formats)');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('a pinned v2 subscription stored before it is unpinned; afterwards v5 is allowed and legacy pins are refused', async () => {
  const o = await makeOwner(app.db);
  const made = await app.request('POST', '/webhooks', {
    token: o.key, version: headVersion(), body: { account_id: o.accountId, url: 'https://hooks.example/in', api_version_date: headVersion() },
  });
  assert.is(made.status, 201, JSON.stringify(made.body));
  await down(app.db);
  await app.db('webhooks').where({ id: made.body.id }).update({ payload_format: 'v2' }); // sql-state-write: the pre-585 row shape (a v2 subscription keeping a pin) that no product path writes any more
  await up(app.db);
  const got = await app.request('GET', `/webhooks/${made.body.id}`, { token: o.key, version: headVersion() });
  assert.equal([got.body.api_version, got.body.api_version_date], ['v2', null]);
  const constraints = await app.db.raw(`select conname, pg_get_constraintdef(oid) as def from pg_constraint
    where conrelid = 'webhooks'::regclass and conname in ('webhooks_payload_format_check', 'webhooks_legacy_format_unpinned') order by conname`);
  assert.equal(constraints.rows.map((r: any) => r.conname), ['webhooks_legacy_format_unpinned', 'webhooks_payload_format_check']);
  assert.match(constraints.rows[1].def, /'v5'/);
});

t.run();
