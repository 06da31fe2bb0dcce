// Signing the ads agreement (PATCH /verifications/{id}) and changing preferences (PATCH
// /accounts/{id}/preferences) at the same time: both write the account's one preferences document, so each reads
// it under the account's lock and neither change is lost.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { startAppWithStore } from '../files/file-env.js';

const t = suite('verifications: ads agreement signed while preferences change');
let app: TestApp;
let close: () => Promise<void>;
t.before(async () => { ({ app, close } = await startAppWithStore()); });
t.after(async () => { await close(); });

const ROUNDS = 6;

t('the signature and a concurrent preference change both stay, every time', async () => {
  for (let round = 0; round < ROUNDS; round++) {
    const o = await makeOwner(app.db);
    const started = await app.request('POST', '/verifications', { token: o.key, query: { account_id: o.accountId }, body: { purpose: 'ads_agreement' } });
    assert.is(started.status, 201, JSON.stringify(started.body));
    const named = await app.request('PATCH', `/verifications/${started.body.id}`, { token: o.key,
      body: { requested_information: [{ id: 'req_printed_name', value: 'Ada Lovelace' }] } });
    assert.is(named.status, 200, JSON.stringify(named.body));
    const [signed, ...changed] = await Promise.all([
      app.request('PATCH', `/verifications/${started.body.id}`, { token: o.key,
        body: { requested_information: [{ id: 'req_ads_terms', value: 'accept' }] } }),
      ...[false, true, false].map((on, i) => app.request('PATCH', `/accounts/${o.accountId}/preferences`, { token: o.key,
        body: i === 1 ? { dispute_fighter_enabled: on } : { cards_notifications: on } })),
    ]);
    assert.is(signed.status, 200, JSON.stringify(signed.body));
    for (const c of changed) assert.is(c.status, 200, JSON.stringify(c.body));
    const prefs = (await app.request('GET', `/accounts/${o.accountId}/preferences`, { token: o.key })).body;
    assert.equal([prefs.ads_agreement.status, prefs.ads_agreement.printed_name, prefs.cards_notifications, prefs.dispute_fighter_enabled],
      ['signed', 'Ada Lovelace', false, true], `round ${round}`);
  }
});

t.run();
