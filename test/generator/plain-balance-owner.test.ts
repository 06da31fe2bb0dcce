// A row owned by an account or by a user (`plain: { owner: { column, query } }`, runtime/plain/row-owner.ts), as
// swaps and crypto deposits belong to a balance: what the generator emits for a retrieve and a list, and the problems
// it reports, each at its file:line:column; with migrations/tables.json, the column is checked against the table.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { generate } from '../../generator/generate.js';
import { loadSpec } from '../../generator/load-spec.js';
import {
  FIXTURE_FILE as F, lineOf, problemAt, problemsWith, problemsWithTables, projectCopy, removeCopies, replaceOnce, writeIn,
} from './spec-fixture.js';

const t = suite('generator: plain operations on rows of an account or a user (owner)');
t.after(() => removeCopies());

/** Exchanges of one owner (an account, biz_, or a user, user_), named by owner_id and shown as account_id; the list
 * is of the owner its account_id names (else the caller's own), by status. */
const OWNED = `resources:
  User:
    prefix: user_
    object: user
    fields:
      id: { type: id, resource: User }

  TestExchange:
    prefix: texc_
    object: test_exchange
    table:
      name: test_exchanges
      columns:
        object: { value: test_exchange }
        account_id: owner_id
    fields:
      id: { type: id, resource: TestExchange }
      object: { type: enum, values: [test_exchange] }
      account_id: string
      status: { type: enum, values: [pending, done] }
      created_at: timestamp

operations:
  retrieveTestExchange:
    method: GET
    path: /test_exchanges/{id}
    summary: Retrieve a test exchange
    scopes: [company:balance:read]
    response: { type: TestExchange }
    errors: [401, 403, 404]
    plain: { kind: retrieve, owner: { column: owner_id } }

  listTestExchanges:
    method: GET
    path: /test_exchanges
    summary: List test exchanges
    scopes: [company:balance:read]
    query:
      account_id: { type: string, pattern: '^(biz|user)_[A-Za-z0-9]{1,64}$' }
      status: { type: enum, values: [pending, done] }
    response: { list: { of: TestExchange, default_page_size: 10, max_page_size: 50 } }
    errors: [400, 401, 403, 404]
    plain: { kind: list, owner: { column: owner_id, query: account_id }, filters: { status: equal } }
`;

/** migrations/tables.json for the fixture's table (what `npm run tables` would write for it). */
const TABLES = JSON.stringify({
  views: [],
  tables: {
    test_exchanges: { id: 'text', owner_id: 'text', status: 'text', created_at: 'timestamptz', updated_at: 'timestamptz' },
  },
});

const optionsOf = (ops: string, id: string): string => {
  const from = ops.slice(ops.indexOf(`export const ${id} =`));
  return from.slice(0, from.indexOf('\n});'));
};

t('a retrieve and a list of owned rows name the owner column, and users by the User resource\'s prefix', () => {
  const ops = generate(projectCopy({ fixture: OWNED })).files['plain-operations.ts'];
  const retrieve = optionsOf(ops, 'retrieveTestExchange');
  assert.match(retrieve, "scopes: ['company:balance:read'],\n  owner: { column: 'test_exchanges.owner_id', userPrefix: 'user_' },");
  assert.not.match(retrieve, 'own:');
  const list = optionsOf(ops, 'listTestExchanges');
  // account_id names the owner: no filter of its own, and no account: narrowing (accountParam) either
  assert.match(list, "owner: { column: 'test_exchanges.owner_id', param: 'account_id', userPrefix: 'user_' },");
  assert.match(list, 'accountParam: null,');
  assert.match(list, `{ param: 'status', test: 'equal', sql: ['"test_exchanges"."status"'] },`);
  assert.not.match(list, "param: 'account_id', test:");
});

t('a list of owned rows without a query parameter is of the caller\'s own', () => {
  const text = replaceOnce(replaceOnce(OWNED, "      account_id: { type: string, pattern: '^(biz|user)_[A-Za-z0-9]{1,64}$' }\n", ''),
    'owner: { column: owner_id, query: account_id }', 'owner: { column: owner_id }');
  const list = optionsOf(generate(projectCopy({ fixture: text })).files['plain-operations.ts'], 'listTestExchanges');
  assert.match(list, "owner: { column: 'test_exchanges.owner_id', userPrefix: 'user_' },");
});

t('with migrations/tables.json, an owner column of the table loads', () => {
  const root = projectCopy({ fixture: OWNED });
  writeIn(root, 'migrations/tables.json', TABLES);
  loadSpec(root);
});

const RETRIEVE_LINE = 'plain: { kind: retrieve, owner';
const LIST_LINE = 'plain: { kind: list, owner';

const problemCases: [string, string, string, ...string[]][] = [
  ['an owner naming a field read otherwise than from a column',
    replaceOnce(OWNED, 'owner: { column: owner_id } }', 'owner: { column: object } }'), RETRIEVE_LINE,
    'plain.owner.column', 'names object, which is not a column of test_exchanges'],
  ['an owner query on a retrieve',
    replaceOnce(OWNED, 'owner: { column: owner_id } }', 'owner: { column: owner_id, query: account_id } }'), RETRIEVE_LINE,
    'plain.owner.query', 'is for a list'],
  ['an owner query naming no query parameter',
    replaceOnce(OWNED, 'query: account_id }', 'query: owner }'), LIST_LINE, 'plain.owner.query', 'names owner, which is not a query parameter'],
  ['an owner query also filtered',
    replaceOnce(OWNED, 'filters: { status: equal } }', 'filters: { status: equal, account_id: equal } }'), LIST_LINE,
    'plain.filters.account_id', 'names the owner'],
  ['an owner with own',
    replaceOnce(OWNED, 'owner: { column: owner_id } }', 'owner: { column: owner_id }, own: { user: owner_id } }'), RETRIEVE_LINE,
    'plain.own', 'is not taken with owner'],
  ['an owner on a delete',
    replaceOnce(replaceOnce(OWNED, 'method: GET\n    path: /test_exchanges/{id}', 'method: DELETE\n    path: /test_exchanges/{id}'),
      'response: { type: TestExchange }\n    errors: [401, 403, 404]\n    plain: { kind: retrieve,',
      'response: { deleted: TestExchange }\n    errors: [401, 403, 404]\n    plain: { kind: delete,'),
    'plain: { kind: delete, owner', 'plain.owner', 'applies to a plain retrieve or list'],
  ['an owner with an unknown key',
    replaceOnce(OWNED, 'owner: { column: owner_id } }', 'owner: { colum: owner_id } }'), RETRIEVE_LINE, 'unknown key "colum"'],
  ['an owner without a User resource to tell users\' ids by',
    replaceOnce(OWNED, '  User:\n    prefix: user_\n', '  TestUser:\n    prefix: user_\n').replace('resource: User }', 'resource: TestUser }'),
    RETRIEVE_LINE, 'plain.owner', 'no User with a prefix'],
];

for (const [name, text, line, ...words] of problemCases) {
  t(`problem: ${name}`, () => {
    problemAt(problemsWith(text), F, lineOf(text, line), ...words);
  });
}

t('problem: a list of owned rows also naming its account (account: query.account_id)', () => {
  const text = replaceOnce(OWNED, '    summary: List test exchanges\n', '    summary: List test exchanges\n    account: query.account_id\n');
  problemAt(problemsWith(text), F, lineOf(text, 'account: query.account_id'), 'account', 'is not taken with plain.owner');
});

t('problem: with migrations/tables.json, an owner column the table lacks', () => {
  const text = replaceOnce(OWNED, 'owner: { column: owner_id, query: account_id }', 'owner: { column: holder_id, query: account_id }');
  problemAt(problemsWithTables(text, TABLES), F, lineOf(text, LIST_LINE), 'plain.owner.column',
    'names holder_id, which is not a column of test_exchanges (migrations/tables.json)');
});

t.run();
