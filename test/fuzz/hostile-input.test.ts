// Property: whatever a client sends to the account operations, the answer is never a 5xx, and every 4xx is the
// JSON error envelope naming this request. Seeded, so a failure reproduces: FUZZ_SEED=<seed> npm test -- test/fuzz
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { bodyText, contentType, idSegment, queryString } from './arbitraries.js';
import { sendChecked, type Sent } from './response-check.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

const t = suite('fuzz: hostile bodies and query strings');
let app: TestApp;
let o: Awaited<ReturnType<typeof makeOwner>>;
let userToken: string;

t.before(async () => {
  app = await startTestApp();
  o = await makeOwner(app.db, { title: 'Fuzz Shop' });
  userToken = (await makeUser(app.db)).token;
});
t.after(async () => { await app.close(); });

/** Sends the request as this credential and checks the answer (response-check.ts). */
const check = async (req: Sent, token: string): Promise<void> => { await sendChecked(req, { authorization: `Bearer ${token}` }); };

// What holds is each answer's status and shape, not the run's speed (which a loaded machine sets): a request that
// gets no answer at all fails in sendChecked (response-check.ts).
async function holds(name: string, property: Parameters<typeof fc.check>[0]): Promise<void> {
  const result = await fc.check(property, { seed: SEED, numRuns: RUNS, endOnFailure: true });
  if (result.failed) {
    assert.unreachable(`${name} failed with seed ${SEED} (path ${result.counterexamplePath}); reproduce with FUZZ_SEED=${SEED}\n`
      + `counterexample: ${fc.stringify(result.counterexample)}\n${String(result.errorInstance ?? '')}`);
  }
}

t('PATCH /accounts/{id} with random bodies and content types', async () => {
  await holds('PATCH bodies', fc.asyncProperty(bodyText, contentType, fc.boolean(), async (body, type, asUser) =>
    check({ method: 'PATCH', url: `${app.url}/accounts/${o.accountId}`, contentType: type, body }, asUser ? o.token : o.key)));
});

t('POST /accounts with random bodies, as an API key and as a user token', async () => {
  await holds('POST bodies', fc.asyncProperty(bodyText, contentType, fc.boolean(), async (body, type, asUser) =>
    check({ method: 'POST', url: `${app.url}/accounts`, contentType: type, body }, asUser ? userToken : o.key)));
});

t('GET /accounts with random query strings', async () => {
  await holds('GET /accounts queries', fc.asyncProperty(queryString, fc.boolean(), async (query, asUser) =>
    check({ method: 'GET', url: `${app.url}/accounts?${query}` }, asUser ? o.token : o.key)));
});

t('GET /accounts/{id} with random ids and query strings', async () => {
  await holds('GET /accounts/{id}', fc.asyncProperty(fc.oneof(fc.constant(o.accountId), idSegment), queryString,
    async (id, query) => check({ method: 'GET', url: `${app.url}/accounts/${id}${query ? `?${query}` : ''}` }, o.key)));
});

t.run();
