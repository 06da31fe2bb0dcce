// The smoke suite's world, made as a user makes it: credentials from the bundled CLI (`npm run cli`, which runs
// dist/bin/cli.js), then objects through the API of the bundled server. Each step that fails is reported and the
// rest go on, so one refusal does not hide what the others would find. Links to the pages outside /api/v1 (3-D
// Secure step, receipt, claim and tracking pages, consent page, file download) are collected for pages.ts.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { projectRoot } from '../../runtime/project-root.js';
import { headVersion } from '../../runtime/versions.js';
import { until } from '../helpers/poll.js';
import type { Checks } from './checks.js';
import { expect } from './checks.js';

const run = promisify(execFile);

export interface Credentials {
  api_key: string;
  user_token: string;
  client: string;
}

export interface SmokeWorld {
  accountId: string;
  ownerId: string;
  credentials: Credentials;
  /** ids of credentials the operations must not revoke (the rest of the run needs them) */
  keep: Set<string>;
  /** pages outside /api/v1 found while seeding, by name: absolute URLs */
  links: Map<string, string>;
  /** the payment the bundled worker collected */
  paymentId?: string;
  /** a public file's POST /files answer (its upload link and headers) */
  file?: any;
  /** ids to name first in paths: the seeded objects in their most useful state */
  preferred: string[];
  /** users made by the CLI besides the owner: a buyer (who paid) and a colleague (invited by addTeamMember) */
  buyer: { id: string; username: string; token: string };
  colleague: { id: string; username: string; token: string };
  ownerUsername: string;
  /** the seeded ad campaign (a draft), product and plans */
  campaignId?: string;
  productId?: string;
  renewalPlanId?: string;
  oneTimePlanId?: string;
}

/** `npm run cli -- <args> --json` on the smoke database: the bundled CLI, as `npm run cli` runs it. */
export async function cli(databaseUrl: string, args: string[]): Promise<Record<string, string>> {
  const { stdout } = await run(process.execPath, [join(projectRoot, 'bin/launch.mjs'), 'cli', ...args, '--json'], {
    env: { ...process.env, DATABASE_URL: databaseUrl }, cwd: projectRoot,
  });
  return JSON.parse(stdout);
}

export interface Answer { status: number; body: any; text: string }

export function apiClient(apiUrl: string) {
  return async (method: string, path: string, o: { token: string; client?: boolean; body?: unknown; version?: string }): Promise<Answer> => {
    const headers: Record<string, string> = { authorization: o.client ? o.token : `Bearer ${o.token}`, 'api-version-date': o.version ?? headVersion() };
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${apiUrl}${path}`, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body), signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, body, text };
  };
}

export async function seedWorld(c: Checks, databaseUrl: string, apiUrl: string): Promise<SmokeWorld> {
  const tag = Date.now().toString(36);
  const owner = await cli(databaseUrl, ['create-user', '--username', `smoke_owner_${tag}`, '--email', `owner-${tag}@example.com`]);
  const shop = await cli(databaseUrl, ['create-account', '--title', 'Smoke Shop', '--owner', owner.username, '--country', 'US']);
  const buyer = await cli(databaseUrl, ['create-user', '--username', `smoke_buyer_${tag}`, '--email', `buyer-${tag}@example.com`]);
  const colleague = await cli(databaseUrl, ['create-user', '--username', `smoke_colleague_${tag}`, '--email', `colleague-${tag}@example.com`]);
  const extraKey = await cli(databaseUrl, ['create-key', '--account', shop.account_id, '--role', 'viewer']);
  const world: SmokeWorld = {
    accountId: shop.account_id,
    ownerId: owner.user_id,
    credentials: { api_key: shop.api_key, user_token: owner.user_token, client: shop.client_id },
    keep: new Set([shop.api_key_id, owner.user_token_id, buyer.user_token_id, colleague.user_token_id]),
    links: new Map(),
    preferred: [],
    ownerUsername: owner.username,
    buyer: { id: buyer.user_id, username: buyer.username, token: buyer.user_token },
    colleague: { id: colleague.user_id, username: colleague.username, token: colleague.user_token },
  };
  void extraKey; // a second key, so that key operations have one to act on besides the suite's own

  const api = apiClient(apiUrl);
  const key = shop.api_key;
  const account_id = shop.account_id;
  /** A seeding step: its answer must be a 2xx; returns the body, or null after reporting the failure. */
  const step = async (name: string, method: string, path: string, body?: unknown, token = key, client = false): Promise<any> => {
    const res = await api(method, path, { token, body, client });
    if (res.status >= 200 && res.status < 300) return res.body;
    c.fail(`seed: ${name}`, `${method} ${path} -> ${res.status} ${res.text.slice(0, 300)}`);
    return null;
  };
  const cardToken = async (number: string) =>
    (await step(`confirmation token (${number})`, 'POST', '/confirmation_tokens', { card: { number, exp_month: 12, exp_year: 2030, cvc: '123' } }, shop.client_id, true))?.id as string | undefined;

  const product = await step('product', 'POST', '/products', { account_id, title: 'Smoke Course' });
  const renewal = product && await step('renewal plan', 'POST', '/plans', { account_id, product_id: product.id, plan_type: 'renewal', billing_period: 30, initial_price: 1500, renewal_price: 1500, stock: 50 });
  const oneTime = product && await step('one-time plan', 'POST', '/plans', { account_id, product_id: product.id, plan_type: 'one_time', initial_price: 900 });
  await step('promo code', 'POST', '/promo_codes', { account_id, code: `SMOKE${tag.toUpperCase()}`, percent_off: 10 });
  await step('webhook', 'POST', '/webhooks', { account_id, url: 'https://example.com/hooks', events: ['payment.succeeded'] });
  await step('connected account', 'POST', '/accounts', { title: 'Smoke Connected', email: 'connected@example.com' });
  world.preferred.push(...[product, oneTime, renewal].filter(Boolean).map((o) => o.id));
  Object.assign(world, { productId: product?.id, renewalPlanId: renewal?.id, oneTimePlanId: oneTime?.id });
  if (oneTime) await step('checkout configuration', 'POST', '/checkout_configurations', { account_id, plan_id: oneTime.id });

  // A payment collected by the bundled worker: answered `processing`, then `succeeded` without anyone else acting.
  await c.check('the bundled worker collects a payment: POST /payments, then GET until succeeded', async () => {
    const token = await cardToken('4242424242424242');
    expect(token, 'no confirmation token');
    const created = await step('payment', 'POST', '/payments', { account_id, amount: 2500, currency: 'usd', confirmation_token: token, user_id: buyer.user_id });
    expect(created, 'the payment was not created');
    world.paymentId = created.id;
    world.preferred.push(created.id);
    const final = await until(async () => {
      const res = await api('GET', `/payments/${created.id}`, { token: key });
      return res.body?.status === 'processing' || res.body?.status === 'pending' ? null : res.body;
    }, `payment ${created.id} leaving processing`, { timeoutMs: 30_000, everyMs: 100 });
    expect(final.status === 'succeeded', `payment ${created.id} ended ${final.status}`);
  });
  if (renewal) {
    const token = await cardToken('4242424242424242');
    if (token) await step('membership purchase', 'POST', '/payments', { account_id, plan_id: renewal.id, confirmation_token: token, user_id: buyer.user_id });
  }
  if (world.paymentId) {
    await step('refund', 'POST', `/payments/${world.paymentId}/refund`, { partial_amount: 100 });
    const receipt = await step('receipt', 'POST', `/payments/${world.paymentId}/generate_pdf`, {});
    const url = receipt && findUrl(receipt, '/receipts/');
    if (url) world.links.set('receipt', url);
    else c.fail('seed: receipt link', `no /receipts/ URL in ${JSON.stringify(receipt)}`);
  }
  const setupToken = await cardToken('4242424242424242');
  if (setupToken) await step('setup intent', 'POST', '/setup_intents', { account_id, confirmation_token: setupToken, user_id: buyer.user_id });

  // Two payments that need a 3-D Secure step: one page is read, the other is answered through its form.
  for (const name of ['3-D Secure step', '3-D Secure step answered']) {
    const token = await cardToken('4000000000003220');
    const payment = token && await step(name, 'POST', '/payments', { account_id, amount: 1200, currency: 'usd', confirmation_token: token, user_id: buyer.user_id });
    const url = payment && findUrl(payment, '/sandbox/authenticate/');
    if (url) world.links.set(name, url);
    else if (payment) c.fail(`seed: ${name}`, `no next_action URL: ${JSON.stringify(payment).slice(0, 300)}`);
  }

  // Funds through the sandbox's crypto network (confirmed at once: CRYPTO_NETWORK_SECONDS=0), then a claim link.
  const deposit = await step('deposit address', 'POST', '/deposits', { destination: account_id });
  const address = deposit?.methods?.crypto?.find((m: { network: string }) => m.network === 'ethereum')?.address;
  const sent = address && await step('crypto deposit', 'POST', '/sandbox/crypto_network/transfers', { network: 'ethereum', address, token: 'usdc', amount: '1000' });
  if (sent) {
    await until(async () => (await api('GET', `/crypto_deposits/${sent.id}`, { token: key })).body?.status === 'confirmed', `deposit ${sent.id} confirmed`, { timeoutMs: 30_000, everyMs: 100 })
      .catch((e: Error) => c.fail('seed: deposit confirmed', e.message));
  }
  const link = await step('claim link', 'POST', '/transfers', { type: 'claim_link', origin_id: account_id, amount: 500, currency: 'usd' });
  if (link?.claim_url) world.links.set('claim page', link.claim_url);
  if (link?.tracking_url) world.links.set('tracking page', link.tracking_url);
  if (link && !(link.claim_url && link.tracking_url)) c.fail('seed: claim link', `no claim_url or tracking_url: ${JSON.stringify(link).slice(0, 300)}`);

  // A public file: its presigned upload, then its download link.
  const bytes = 'smoke';
  const file = await step('file', 'POST', '/files', { filename: 'smoke.txt', content_type: 'text/plain', visibility: 'public', size: bytes.length });
  if (file) world.file = file;

  // Objects of kinds whose creates the schema-derived inputs cannot make (a rule wants two variants, a hostname, ...).
  await step('experiment', 'POST', '/experiments', { account_id, name: 'Smoke test', variants: [{ key: 'a', weight: 5000 }, { key: 'b', weight: 5000 }] });
  await step('payment method domain', 'POST', '/payment_method_domains', { account_id, domain: `pay-${tag}.example.com` });
  await step('audience', 'POST', '/audiences', { account_id, name: 'Smoke buyers', source_type: 'customer_list' });
  await step('app', 'POST', '/apps', { account_id, name: 'Smoke App' });
  await step('bounty', 'POST', '/bounties', { account_id, title: 'Smoke bounty', description: 'Find a bug', gross_reward_amount: 10, accepted_submissions_limit: 1 });
  const campaign = await step('ad campaign', 'POST', '/ad_campaigns', { account_id, title: 'Smoke campaign', objective: 'traffic', platform: 'meta', budget_amount: 1000 });
  if (campaign) world.preferred.push(campaign.id);
  world.campaignId = campaign?.id;
  // Payments the card network reports on a few seconds after they settle: six disputes (test/smoke/hints.ts gives
  // each version's dispute operations one still open to evidence) and a dispute alert.
  for (const [name, number] of [...Array(6).fill(['disputed payment', '4000000000000259']), ['payment with a dispute alert', '4000000000001976']]) {
    const token = await cardToken(number);
    if (token) await step(name, 'POST', '/payments', { account_id, amount: 1100, currency: 'usd', confirmation_token: token, user_id: buyer.user_id });
  }

  const connect = await step('consent page', 'POST', '/external_accounts/connect', { account_id, platform: 'tiktok', redirect_url: 'https://example.com/connected' });
  if (connect?.authorize_url) world.links.set('consent page', connect.authorize_url);
  return world;
}

/** The first string anywhere in the value that is a URL containing `marker`. */
function findUrl(value: unknown, marker: string): string | undefined {
  if (typeof value === 'string') return /^https?:\/\//.test(value) && value.includes(marker) ? value : undefined;
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) {
      const found = findUrl(v, marker);
      if (found) return found;
    }
  }
  return undefined;
}
