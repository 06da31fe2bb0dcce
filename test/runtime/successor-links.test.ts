// Every deprecated operation with a successor, taken from the route table: at the latest version and at the official
// client's default pin (where the route serves it), its answer's successor Link is a URL with the request's path
// parameters and query filled in (no `{` placeholder); called with the same credential (and the successor's method)
// it is not a 404, and where the successor's path has a GET, that answers 200 (the same as a deprecated read). A
// read-only key makes every call without changing anything (writes stop at their scope check, after the headers).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey } from '../helpers/fixtures.js';
import { operations } from '../../generated/routes.js';
import { headVersion } from '../../runtime/versions.js';
import { createProduct, createVariant } from '../catalogue/support.js';
import { connectedAccount } from '../external_accounts/external-account-fixtures.js';
import { NETWORK_CARDS, disputeOf, paidWith, seller } from '../disputes/dispute-fixtures.js';

const t = suite('runtime: successor links are followable URLs');
const PIN = '2026-07-20';
let app: TestApp;
let readKey: string;
let accountId: string;
/** a value for each path parameter, by the deprecated path's first segment and the parameter's name */
let values: Record<string, Record<string, string>>;

t.before(async () => {
  app = await startTestApp();
  const s = await seller(app);
  accountId = s.accountId;
  const product = await createProduct(app, s.key, s.accountId);
  const variant = await createVariant(app, s.key, s.accountId, product.id);
  const external = await connectedAccount(app, s.key, s.accountId);
  const dispute = await disputeOf(app, (await paidWith(app, s, NETWORK_CARDS.chargeback)).id);
  readKey = (await makeKey(app.db, { accountId: s.accountId, statements: [{ effect: 'allow',
    actions: ['plan:basic:read', 'social_account:read', 'payment:dispute:read', 'stats:read', 'company:basic:read'] }] })).secret;
  values = {
    plans: { id: variant.id },
    variants: { id: variant.id },
    social_accounts: { id: external.id },
    disputes: { id: dispute.id },
    stats: { metric: 'gross_revenue' },
  };
});
t.after(async () => { await app.close(); });

const deprecated = operations.filter((op) => op.deprecated?.successor);

t('the route table has deprecated operations with successors, with and without path parameters', () => {
  assert.ok(deprecated.some((op) => op.path.includes(':')));
  assert.ok(deprecated.some((op) => !op.path.includes(':')));
});

for (const op of deprecated) {
  for (const version of [headVersion(), PIN].filter((v) => op.versions[v])) {
    t(`${op.method} ${op.path} at ${version}: its successor Link is filled in and followable`, async () => {
      const family = op.path.split('/')[1];
      const path = op.path.replace(/:([a-z_]+)/g, (_, name: string) => {
        const value = values[family]?.[name];
        if (!value) throw new Error(`no test value for ${name} of ${op.path}: add one to this test`);
        return value;
      });
      // The account an operation reads from its query, under the name this version gives it (company_id at the pin).
      const accountParam = op.account?.from === 'query' ? op.versions[version].olderNames?.[op.account.name] ?? op.account.name : null;
      const query = {
        ...(accountParam ? { [accountParam]: accountId } : {}),
        ...(family === 'stats' ? { from: '2026-06-01', to: '2026-06-02', time_zone: 'UTC' } : {}),
      };
      const body = op.method === 'GET' || op.method === 'DELETE' ? undefined : {};
      const res = await app.request(op.method, path, { token: readKey, version, query, body });
      assert.is(res.headers.get('deprecation'), 'true');
      const header = res.headers.get('link');
      if (!(op.deprecated as { successorAt?: Record<string, unknown> }).successorAt?.[version]) {
        // The successor is not served at this version: a link there could not be followed.
        assert.is(header, null);
        return;
      }
      const match = /^<([^>]*)>; rel="successor-version"$/.exec(header ?? '');
      assert.ok(match, `a successor link: ${header}`);
      const link = match![1];
      assert.not.match(link, /[{}]/);
      assert.ok(link.startsWith('/api/v1/'), link);
      for (const [name, value] of Object.entries(query)) assert.ok(new URL(link, app.url).searchParams.get(name) === value, `${link} carries ${name}`);
      const template = (path: string) => path.replace(/:([a-z_]+)/g, '{$1}');
      const there = operations.filter((o) => template(o.path) === op.deprecated!.successor && o.versions[version]);
      // Followed as the successor operation is called: its method (this one's where it has it), the same credential.
      const successor = there.find((o) => o.method === op.method) ?? there.find((o) => o.method === 'GET') ?? there[0];
      assert.ok(successor, `an operation at ${op.deprecated!.successor} at ${version}`);
      const url = new URL(link, app.url);
      const follow = (method: string) => fetch(url, { method, headers: { authorization: `Bearer ${readKey}`, 'api-version-date': version,
        ...(method === 'GET' || method === 'DELETE' ? {} : { 'content-type': 'application/json' }) }, body: method === 'GET' || method === 'DELETE' ? undefined : '{}' });
      const called = await follow(successor.method);
      assert.ok(![404, 405].includes(called.status), `${successor.method} ${link}: ${called.status} ${await called.text()}`);
      // Where the successor's path reads something, its ids name what the request named: a GET answers 200.
      if (!there.some((o) => o.method === 'GET')) return;
      const read = await follow('GET');
      const text = await read.text();
      assert.is(read.status, 200, `GET ${link}: ${text}`);
      if (op.method === 'GET') {
        // A read's successor answers the same.
        assert.is(res.status, 200, JSON.stringify(res.body));
        assert.equal(JSON.parse(text), res.body);
      }
    });
  }
}

t.run();
