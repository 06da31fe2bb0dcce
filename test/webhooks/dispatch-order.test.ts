// A subscription's deliveries follow its events' order even when their fan-outs run out of order: dispatch jobs run
// side by side, and an event's fan-out takes its account's earlier events not fanned out yet first
// (handlers/webhooks/delivery/dispatch-event-task.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pino from 'pino';
import { makeOwner } from '../helpers/fixtures.js';
import { until, withAppAndReceiver, type Receiver } from './receiver.js';
import type { TestApp } from '../helpers/harness.js';
import { dispatchEvent } from '../../handlers/webhooks/index.js';
import { taskList } from '../../wiring/tasks.js';
import { startWorker } from '../../runtime/worker.js';

const HEAD = '2026-09-06';
const t = suite('webhooks: fan-out in the order of the events');

let app: TestApp;
let receiver: Receiver;
withAppAndReceiver(t, (a, r) => { app = a; receiver = r; });

async function subscribedOwnerWithTitles(titles: string[]) {
  const o = await makeOwner(app.db);
  const res = await app.request('POST', '/webhooks', {
    token: o.key, version: HEAD, body: { account_id: o.accountId, url: receiver.url, events: ['account.updated'] },
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  receiver.secret = res.body.secret;
  for (const title of titles) {
    assert.is((await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { title } })).status, 200);
  }
  const events: string[] = await app.db('events').where({ account_id: o.accountId, type: 'account.updated' })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]).pluck('id');
  assert.is(events.length, titles.length);
  return { ...o, events, webhookId: res.body.id as string };
}

t('the last event fanned out first brings the earlier ones with it, oldest first, and each goes out once', async () => {
  const titles = ['One', 'Two', 'Three'];
  const o = await subscribedOwnerWithTitles(titles);
  assert.is(await dispatchEvent(app.db, o.events[2]), 3, 'three events, one subscription each');
  assert.is(await dispatchEvent(app.db, o.events[0]), 0, 'already out');
  assert.is(await dispatchEvent(app.db, o.events[1]), 0, 'already out');
  const deliveries = await app.db('webhook_deliveries').where({ webhook_id: o.webhookId }).orderBy('created_at').pluck('event_id');
  assert.equal([...deliveries].sort(), [...o.events].sort(), 'one delivery per event');

  receiver.received.length = 0;
  const worker = await startWorker({ databaseUrl: app.databaseUrl, tasks: taskList(app.db), logger: pino({ level: 'silent' }), pollInterval: 50 });
  try {
    await until(() => receiver.received.length >= titles.length, 'three deliveries');
  } finally {
    await worker.stop();
  }
  assert.equal(receiver.received.map((r) => r.json.data.title), titles);
});

t('fan-outs of one account racing each other wait rather than deadlock, and none is lost or doubled', async () => {
  const titles = ['A', 'B', 'C', 'D', 'E', 'F'];
  const o = await subscribedOwnerWithTitles(titles);
  const counts = await Promise.all([...o.events].reverse().map((id) => dispatchEvent(app.db, id)));
  assert.is(counts.reduce((a, b) => a + b, 0), titles.length, `fanned out ${counts.join(', ')}`);
  const deliveries = await app.db('webhook_deliveries').where({ webhook_id: o.webhookId }).pluck('event_id');
  assert.equal([...deliveries].sort(), [...o.events].sort());
  assert.is(await app.db('events').whereIn('id', o.events).whereNull('dispatched_at').count('* as n').first().then((r) => Number(r!.n)), 0);
});
t.run();
