// The library API end to end, over HTTP on its own database: the catalogue (a plain resource), a loan through its
// state machine, both dated versions (due_at and loan_days before 2026-03-01), and loan.returned delivered to a
// webhook endpoint listening here.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { Knex } from 'knex';
import { createKnex } from '../../../runtime/db.js';
import { hashSecret } from '../../../runtime/credentials.js';
import { randomToken } from '../../../runtime/ids.js';
import type { RunningServer } from '../../../runtime/server.js';
import { startLibraryServer } from '../compose.js';
import { markOverdueLoans } from '../handlers/loans/mark-overdue.js';

// New keys are pinned to the latest version, as the commerce API's are; OLD is sent as Api-Version-Date.
const HEAD = '2026-03-01';
const OLD = '2025-09-01';
const t = suite('library: books, loans, versions and webhooks');

let db: Knex;
let app: RunningServer;
let hook: Server;
let hookUrl: string;
const received: { type: string; api_version: string; data: Record<string, unknown> }[] = [];
const library = `lib_${randomToken(12)}`;
const secret = `sk_${randomToken(32)}`;

async function call(method: string, path: string, body?: unknown, version?: string) {
  const res = await fetch(`${app.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...(version ? { 'api-version-date': version } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() as any };
}

/** The UTC day `days` from today. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function until<T>(probe: () => T | undefined, what: string): Promise<T> {
  for (const started = Date.now(); Date.now() - started < 20_000; await new Promise((r) => setTimeout(r, 50))) {
    const found = probe();
    if (found !== undefined) return found;
  }
  throw new Error(`timed out waiting for ${what}`);
}

t.before(async () => {
  const url = process.env.LIBRARY_DATABASE_URL!;
  db = createKnex(url, 4);
  await db('accounts').insert({ id: library, title: 'Branch library', client_id: `client_${randomToken(12)}` });
  await db('api_keys').insert({ id: `key_${randomToken(12)}`, account_id: library, secret_hash: hashSecret(secret), role: 'owner', api_version_date: HEAD });
  app = await startLibraryServer({ db, databaseUrl: url });
  hook = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => { text += chunk; });
    req.on('end', () => {
      received.push(JSON.parse(text));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/hooks`;
});

t.after(async () => {
  await app.close();
  await new Promise((resolve) => hook.close(resolve));
  await db.destroy();
});

let bookId: string;
let loanId: string;

t('a book is created, retrieved and listed (plain retrieve and list)', async () => {
  const created = await call('POST', '/books', { account_id: library, title: 'Middlemarch', author: 'George Eliot', isbn: '9780141439549' });
  assert.is(created.status, 201, JSON.stringify(created.body));
  assert.match(created.body.id, /^book_/);
  assert.is(created.body.object, undefined);
  bookId = created.body.id;
  const one = await call('GET', `/books/${bookId}`);
  assert.is(one.status, 200);
  assert.is(one.body.title, 'Middlemarch');
  const page = await call('GET', `/books?account_id=${library}`);
  assert.is(page.status, 200);
  assert.equal(page.body.data.map((b: { id: string }) => b.id), [bookId]);
  const invalid = await call('POST', '/books', { account_id: library, title: '', author: 'x' });
  assert.is(invalid.status, 400);
  assert.is(invalid.body.error.param, 'title');
});

t('webhook endpoints are registered at the head and at the older version', async () => {
  const head = await call('POST', '/webhook_endpoints', { account_id: library, url: `${hookUrl}/head`, events: ['loan.returned'] });
  assert.is(head.status, 201, JSON.stringify(head.body));
  assert.is(head.body.api_version, HEAD);
  const old = await call('POST', '/webhook_endpoints', { account_id: library, url: `${hookUrl}/old`, events: ['loan.returned'] }, OLD);
  assert.is(old.status, 201, JSON.stringify(old.body));
  assert.is(old.body.api_version, OLD);
});

t('a loan is checked out for a named period; a second loan of the same book is a 409', async () => {
  const loan = await call('POST', '/loans', { account_id: library, book_id: bookId, borrower: 'CARD1234', period: 'one_week' });
  assert.is(loan.status, 201, JSON.stringify(loan.body));
  assert.is(loan.body.status, 'checked_out');
  assert.is(loan.body.due_date, inDays(7));
  assert.is(loan.body.due_at, undefined);
  loanId = loan.body.id;
  const again = await call('POST', '/loans', { account_id: library, book_id: bookId, borrower: 'CARD5678' });
  assert.is(again.status, 409);
  assert.is(again.body.error.param, 'book_id');
});

t('the older version sees due_at and takes loan_days (7, 14 or 28) instead of period', async () => {
  const seen = await call('GET', `/loans/${loanId}`, undefined, OLD);
  assert.is(seen.status, 200);
  assert.is(seen.body.due_at, inDays(7));
  assert.is(seen.body.due_date, undefined);
  const book = await call('POST', '/books', { account_id: library, title: 'Persuasion', author: 'Jane Austen' });
  const old = await call('POST', '/loans', { account_id: library, book_id: book.body.id, borrower: 'CARD1234', loan_days: 28 }, OLD);
  assert.is(old.status, 201, JSON.stringify(old.body));
  assert.is(old.body.due_at, inDays(28));
  const headShape = await call('POST', '/loans', { account_id: library, book_id: book.body.id, borrower: 'CARD1234', period: 'one_week' }, OLD);
  assert.is(headShape.status, 400, 'period is not a field of the older version');
  const headLoan = await call('GET', `/loans/${old.body.id}`);
  assert.is(headLoan.body.due_date, inDays(28));
});

t('a loan past its due date becomes overdue (the hourly task) and can still be returned', async () => {
  const book = await call('POST', '/books', { account_id: library, title: 'Emma', author: 'Jane Austen' });
  const loan = await call('POST', '/loans', { account_id: library, book_id: book.body.id, borrower: 'CARD4321' });
  assert.is(loan.body.due_date, inDays(14), 'two_weeks is the default period');
  assert.is(await markOverdueLoans(db), 0);
  await db('loans').where({ id: loan.body.id }).update({ due_date: inDays(-1) });
  assert.is(await markOverdueLoans(db), 1);
  assert.is((await call('GET', `/loans/${loan.body.id}`)).body.status, 'overdue');
  const returned = await call('POST', `/loans/${loan.body.id}/return`);
  assert.is(returned.status, 200, JSON.stringify(returned.body));
  assert.is(returned.body.status, 'returned');
});

t('returning the loan ends it; returning it again is a 400 invalid_state naming status', async () => {
  const returned = await call('POST', `/loans/${loanId}/return`);
  assert.is(returned.status, 200, JSON.stringify(returned.body));
  assert.is(returned.body.status, 'returned');
  assert.ok(returned.body.returned_at);
  const again = await call('POST', `/loans/${loanId}/return`);
  assert.is(again.status, 400);
  assert.is(again.body.error.type, 'invalid_state');
  assert.is(again.body.error.param, 'status');
});

t('loan.returned reaches both endpoints, each in its version\'s shape', async () => {
  const head = await until(() => received.find((e) => e.type === 'loan.returned' && e.data.id === loanId && e.api_version === HEAD), 'the head delivery');
  assert.is(head.data.status, 'returned');
  assert.is(head.data.due_date, inDays(7));
  const old = await until(() => received.find((e) => e.type === 'loan.returned' && e.data.id === loanId && e.api_version === OLD), 'the older delivery');
  assert.is(old.data.due_at, inDays(7));
  assert.is(old.data.due_date, undefined);
});

t.run();
