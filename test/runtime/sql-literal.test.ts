// quoteLiteral (runtime/sql-literal.ts): the same literal as pg's escapeLiteral for any text, and PostgreSQL reads
// it back as the text it was made from (quotes, backslashes, any Unicode; NUL is not storable in text at all).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import pg from 'pg';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { quoteLiteral } from '../../runtime/sql-literal.js';

const t = suite('runtime: SQL literals');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

// Quotes and backslashes often, among any well-formed Unicode.
const text = fc.array(fc.oneof(fc.constantFrom("'", '\\', '"', 'E', ' '), fc.string({ unit: 'binary', maxLength: 3 })))
  .map((parts) => parts.join('').replaceAll('\0', '')).filter((s) => !/\p{Surrogate}/u.test(s));

t('the literal is pg\'s escapeLiteral\'s', () => {
  fc.assert(fc.property(text, (s) => quoteLiteral(s) === pg.escapeLiteral(s)), { numRuns: 2000 });
  assert.is(quoteLiteral("it's"), "'it''s'");
  assert.is(quoteLiteral('a\\b'), " E'a\\\\b'");
});

t('PostgreSQL reads the literal back as the text', async () => {
  await fc.assert(fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 20 }), async (texts) => {
    const { rows } = await app.db.raw(`select ${texts.map((s, i) => `${quoteLiteral(s)}::text as t${i}`).join(', ')}`);
    assert.equal(texts.map((_, i) => rows[0][`t${i}`]), texts);
  }), { numRuns: 100 });
});

t.run();
