// A field the head hides (pdf_url, changelog entry 4) read for an older pin's list with the page's own statement
// (runtime/plain/stored-resource.ts selectRows, hidden-fields.ts fillHidden), not by a second statement over the page's
// ids; a retrieve still fills it by its own statement. The values are those of the payment-changes test.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeSeller, makeVariant, pay } from '../payments/payment-fixtures.js';
import { recordStatements, statementsOf, stopRecordingStatements } from '../helpers/page-plans.js';

const t = suite('versions: hidden fields read with the page');
let app: TestApp;
let seller: Awaited<ReturnType<typeof makeSeller>>;
recordStatements();
t.before(async () => {
  app = await startTestApp();
  seller = await makeSeller(app.db);
});
t.after(async () => { stopRecordingStatements(); await app.close(); });

const fillStatement = (text: string) => /^\s*select "payments"\."id", \(/i.test(text);
const pageStatement = (text: string) => /from "payments"/i.test(text) && /\blimit\b/i.test(text);

t('an older pin\'s list reads pdf_url in its page statement; the head\'s page does not select it', async () => {
  const variant = await makeVariant(app, seller.accountId, { price: 900 });
  const paid = await Promise.all([pay(app, seller, { plan_id: variant.id }), pay(app, seller, { plan_id: variant.id })]);
  const made = await app.request('POST', `/payments/${paid[0].id}/generate_pdf`, { token: seller.key, version: '2026-09-06' });
  assert.is(made.status, 200, JSON.stringify(made.body));
  for (const [version, query] of [['2026-07-20', { company_id: seller.accountId }], ['2026-09-02', { account_id: seller.accountId }]] as const) {
    const { res, statements } = await statementsOf(app, 'GET', '/payments', { token: seller.key, version, query });
    assert.is(res.status, 200, JSON.stringify(res.body));
    const byId = new Map(res.body.data.map((p: { id: string; pdf_url: string | null }) => [p.id, p.pdf_url]));
    assert.is(byId.get(paid[0].id), made.body.url, version);
    assert.is(byId.get(paid[1].id), null, version);
    assert.not.ok(statements.some((s) => fillStatement(s.text)), `a second statement filled pdf_url at ${version}`);
    const pages = statements.filter((s) => pageStatement(s.text));
    assert.is(pages.length, 1, version);
    assert.ok(pages[0].text.includes('newest_receipt_id'), `the page reads the receipt at ${version}`);
  }
  const head = await statementsOf(app, 'GET', '/payments', { token: seller.key, version: '2026-09-06', query: { account_id: seller.accountId } });
  assert.ok(head.res.body.data.every((p: object) => !('pdf_url' in p)));
  assert.not.ok(head.statements.some((s) => s.text.includes('newest_receipt')), 'the head reads no receipt');
  // A retrieve reads its row by a constant statement and fills the field by its own.
  const one = await statementsOf(app, 'GET', `/payments/${paid[0].id}`, { token: seller.key, version: '2026-07-20' });
  assert.is(one.res.body.pdf_url, made.body.url);
  assert.ok(one.statements.some((s) => fillStatement(s.text)));
});

t.run();
