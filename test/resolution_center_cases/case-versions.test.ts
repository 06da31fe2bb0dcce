// Cases at a pin before entry 50 (2026-07-30): due_date for response_due_at, lists owned by company_id, and the
// native endpoints (timeline, summary, the merchant's actions) not there yet (404).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { renderAt } from '../../runtime/render.js';
import { call, OLD, openCase, seller, VERSION } from './case-fixtures.js';

const t = suite('resolution-center-versions');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('before entry 50: due_date instead of response_due_at, on retrieve, lists and the sandbox', async () => {
  const s = await seller(app);
  const { c } = await openCase(app, s);
  const old = await call(app, s.key, 'GET', `/resolution_center_cases/${c.id}`, undefined, OLD);
  assert.is(old.status, 200, JSON.stringify(old.body));
  assert.is(old.body.due_date, c.response_due_at);
  assert.not.ok('response_due_at' in old.body);
  const { due_date, ...rest } = old.body;
  const { response_due_at, ...head } = c;
  assert.equal([rest, due_date], [head, response_due_at]);
  const list = await call(app, s.key, 'GET', `/resolution_center_cases?company_id=${s.accountId}`, undefined, OLD);
  assert.equal([list.status, list.body.data.map((x: any) => [x.id, x.due_date])], [200, [[c.id, c.response_due_at]]]);
  assert.is((await call(app, s.key, 'GET', `/resolution_center_cases?company_id=${s.accountId}`)).status, 400);
  assert.is((await call(app, s.key, 'GET', `/resolution_center_cases?account_id=${s.accountId}`, undefined, OLD)).status, 400);
  const other = await (await import('./case-fixtures.js')).paid(app, s);
  const opened = await call(app, s.key, 'POST', '/sandbox/resolution_center_cases', { payment_id: other.id, reason: 'forgot_to_cancel', message: 'm' }, OLD);
  assert.equal([opened.status, typeof opened.body.due_date, 'response_due_at' in opened.body], [201, 'string', false]);
  assert.equal(renderAt('ResolutionCenterCase', c, OLD), { ...head, due_date: response_due_at });
});

t('before entry 50: the timeline, the summary and the merchant\'s actions do not exist (404)', async () => {
  const s = await seller(app);
  const { c } = await openCase(app, s);
  for (const [method, path, body] of [
    ['GET', `/resolution_center_cases/${c.id}/events`, undefined],
    ['GET', '/resolution_center_cases/summary', undefined],
    ['POST', `/resolution_center_cases/${c.id}/respond`, { message: 'x' }],
    ['POST', `/resolution_center_cases/${c.id}/refund`, {}],
    ['POST', `/resolution_center_cases/${c.id}/escalate`, {}],
    ['POST', `/resolution_center_cases/${c.id}/close`, {}],
  ] as const) {
    const res = await call(app, s.key, method, path, body, OLD);
    assert.is(res.status, 404, `${method} ${path}`);
    assert.is((await call(app, s.key, method, path, body, VERSION)).status === 404, false, `${method} ${path} at the head`);
  }
});

t.run();
