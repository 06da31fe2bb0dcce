// One slow receiver does not hold back the others: deliveries run concurrently across subscriptions and one at a
// time, in order, within one (each subscription's graphile-worker queue, handlers/webhooks/delivery/delivery-queue.ts).
// A real worker, two loopback receivers: one answers after 10 s, the other at once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pino from 'pino';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { startReceiver, until, type Receiver } from './receiver.js';
import { taskList } from '../../wiring/tasks.js';
import { startWorker } from '../../runtime/worker.js';

const HEAD = '2026-09-06';
const t = suite('webhooks: a slow receiver holds back only itself');
let app: TestApp;
let slow: Receiver;
let fast: Receiver;
t.before(async () => {
  app = await startTestApp();
  slow = await startReceiver();
  fast = await startReceiver();
});
t.after(async () => {
  await slow.close();
  await fast.close();
  await app.close();
});

t('another subscription\'s deliveries arrive at once while the slow one\'s arrive one at a time, in order', async () => {
  const o = await makeOwner(app.db);
  for (const receiver of [slow, fast]) {
    const res = await app.request('POST', '/webhooks', {
      token: o.key, version: HEAD, body: { account_id: o.accountId, url: receiver.url, events: ['account.updated'] },
    });
    assert.is(res.status, 201, JSON.stringify(res.body));
    receiver.secret = res.body.secret;
  }
  slow.respond = { status: 200, delayMs: 10_000 };
  const titles = ['First', 'Second', 'Third', 'Fourth'];
  for (const title of titles) {
    assert.is((await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { title } })).status, 200);
  }

  const worker = await startWorker({ databaseUrl: app.databaseUrl, tasks: taskList(app.db), logger: pino({ level: 'silent' }), pollInterval: 50 });
  const started = Date.now();
  try {
    await until(() => fast.received.length >= titles.length, 'the fast receiver to get every event', 8_000);
    const fastDone = Date.now() - started;
    assert.ok(fastDone < 5_000, `the fast subscription's deliveries arrived in ${fastDone} ms`);
    assert.is(slow.received.length, 1, 'the slow subscription has one delivery in flight, no more');
    assert.equal(fast.received.map((r) => r.json.data.title), titles, 'in the order of the events');
    assert.ok(fast.received.every((r) => r.verified));

    // The slow one's arrive one at a time (each after the previous answer, 10 s later), in the events' order.
    await until(() => slow.received.length >= 3, 'three deliveries to the slow receiver', 40_000);
    assert.equal(slow.received.map((r) => r.json.data.title), titles.slice(0, 3));
    assert.ok(slow.received.every((r) => r.verified));
  } finally {
    await worker.stop();
  }
});

t.run();
