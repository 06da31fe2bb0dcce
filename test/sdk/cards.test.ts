// client.cards through the official client at its default pin (2026-07-20): create, retrieve, freeze, cancel, list.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BadRequestError } from '@whop/sdk';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { loose, raw, rejects, sdk } from './sdk-helpers.js';

const t = suite('sdk: cards');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('cards.create, retrieve, update (frozen, canceled) and list', async () => {
  const o = await makeOwner(app.db);
  const client = sdk(app, o.key);
  const card = await client.cards.create({ account_id: o.accountId, name: 'SDK card', 'Idempotency-Key': 'sdk-card-1' });
  assert.equal([card.object, card.status, card.name, card.user_id, card.type], ['card', 'active', 'SDK card', o.owner.id, 'virtual']);
  const replay = await client.cards.create({ account_id: o.accountId, name: 'SDK card', 'Idempotency-Key': 'sdk-card-1' });
  assert.is(replay.id, card.id);
  assert.is((await client.cards.retrieve(card.id)).id, card.id);
  assert.is((await client.cards.update(card.id, { frozen: true })).status, 'frozen');
  assert.is((await client.cards.update(card.id, { canceled: true })).status, 'canceled');
  const listed = await client.cards.list({ account_id: o.accountId });
  assert.equal(listed.data.map((c) => c.id), [card.id]);
  assert.ok(raw(listed).page_info);
});

t('cards.create is refused while cards_notifications is false', async () => {
  const o = await makeOwner(app.db);
  const client = sdk(app, o.key);
  // The client's types at its pin do not name cards_notifications; the server takes it at every version.
  await client.accounts.preferences.update(o.accountId, loose({ cards_notifications: false }));
  const err = await rejects(client.cards.create({ account_id: o.accountId }), BadRequestError, 400);
  assert.is(raw(err.error).error.param, 'cards_notifications');
});

t.run();
