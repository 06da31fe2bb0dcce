// client.disputes and client.disputeAlerts through the official client at its default pin (2026-07-20): the shapes
// and paths from before entry 52.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BadRequestError } from '@whop/sdk';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { disputeOf, NETWORK_CARDS, paidWith, seller } from '../disputes/dispute-fixtures.js';
import { ruleOnDispute } from '../../sandbox/card_scheme/index.js';
import { collectAll, raw, rejects, sdk } from './sdk-helpers.js';

const t = suite('sdk: disputes');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('disputes: list, retrieve, updateEvidence, submitEvidence; the ruling follows the evidence', async () => {
  const s = await seller(app);
  const p = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const d = await disputeOf(app, p.id);
  const client = sdk(app, s.key);
  const listed = await collectAll(client.disputes.list({ company_id: s.accountId }));
  assert.equal(listed.map((x) => [x.id, x.amount, x.currency, x.status, x.editable, x.payment?.id, x.company?.id]),
    [[d.id, 100, 'usd', 'needs_response', true, p.id, s.accountId]]);
  const updated = await client.disputes.updateEvidence(d.id, { notes: 'Delivered. winning_evidence', customer_name: 'Ada' });
  assert.equal([updated.notes, updated.customer_name, updated.editable], ['Delivered. winning_evidence', 'Ada', true]);
  const submitted = await client.disputes.submitEvidence(d.id);
  assert.equal([submitted.status, submitted.editable], ['under_review', false]);
  const err = await rejects(client.disputes.submitEvidence(d.id), BadRequestError, 400);
  assert.is(raw(err.error).error.type, 'invalid_state');
  await ruleOnDispute(app.db, d.id);
  assert.is((await client.disputes.retrieve(d.id)).status, 'won');
});

t('disputeAlerts: list and retrieve in alert_type form', async () => {
  const s = await seller(app);
  const p = await paidWith(app, s, NETWORK_CARDS.disputeAlert);
  const client = sdk(app, s.key);
  const alerts = await collectAll(client.disputeAlerts.list({ company_id: s.accountId }));
  assert.equal(alerts.map((a) => [a.alert_type, a.charge_for_alert, a.amount, a.payment?.id]), [['dispute', true, 100, p.id]]);
  const one = await client.disputeAlerts.retrieve(alerts[0].id);
  assert.equal([one.alert_type, one.dispute], ['dispute', null]);
});

t.run();
