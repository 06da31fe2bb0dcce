// What the schema-driven inputs (test/fuzz/operation-requests.ts) cannot guess, by operationId: the objects an
// operation needs in the right state (made just before the call, through the API, so each version's call has its
// own), and the body, query or path values a rule beyond the schema wants (one of two fields, a hostname, a
// carrier's tracking number). The generated required inputs are the base; a hint's values replace theirs. Also the
// operations whose success the product reaches only with time or an outside event (UNREACHABLE, with the reason):
// every other operation must reach a 2xx at every version the smoke suite calls.
import type { Inputs } from '../fuzz/operation-requests.js';
import type { Credentials, SmokeWorld } from './seed.js';
import { createHash } from 'node:crypto';
import { headVersion } from '../../runtime/versions.js';

export interface HintContext {
  version: string;
  world: SmokeWorld;
  /** a real id of the prefix: the newest one this run's calls made, else the world's first */
  id(prefix: string): string;
  /** every real id of the prefix, in that order */
  ids(prefix: string): string[];
  /** a call through the API at this version (the suite's API key unless named); its 2xx body, or it throws */
  call(method: string, path: string, body?: unknown, credential?: keyof Credentials | { token: string }): Promise<any>;
  /** a fresh text, for values that must be unique (codes, usernames, domains) */
  unique(): string;
}

export interface Hint {
  inputs(ctx: HintContext): Promise<Partial<Inputs>> | Partial<Inputs>;
  /** the credential to call with, when not the one the document names first */
  credential?: keyof Credentials | ((ctx: HintContext) => { token: string });
  /** told the 2xx answer's body (e.g. to hand an id to a later operation's hint) */
  after?(ctx: HintContext, answer: any): void;
}

const CARD = { ok: '4242424242424242', threeDSecure: '4000000000003220', declined: '4000000000000002' };
// (and the older pins' from_date and to_date: each version's call keeps the parameters its document has)
const PERIOD = { from: '2026-01-01T00:00:00Z', to: '2026-12-31T00:00:00Z', from_date: '2026-01-01', to_date: '2026-12-31' };

/** A card's confirmation token, made by the client (as a checkout page makes it). */
async function cardToken(ctx: HintContext, number = CARD.ok): Promise<string> {
  return (await ctx.call('POST', '/confirmation_tokens', { card: { number, exp_month: 12, exp_year: 2030, cvc: '123' } }, 'client')).id;
}

/** A payment by the buyer; `settled`: waited for until the bundled worker has collected (or failed) it. */
async function payment(ctx: HintContext, o: { card?: string; body?: Record<string, unknown>; settled?: boolean } = {}): Promise<any> {
  const made = await ctx.call('POST', '/payments', {
    account_id: ctx.world.accountId, amount: 1200, currency: 'usd', user_id: ctx.world.buyer.id,
    confirmation_token: await cardToken(ctx, o.card), ...o.body,
  });
  if (!o.settled) return made;
  for (let i = 0; i < 300; i++) {
    const now = await ctx.call('GET', `/payments/${made.id}`);
    if (now.status !== 'processing' && now.status !== 'pending') return now;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`payment ${made.id} was not collected in 30 s`);
}

/** Objects many calls need one each of and that take the bundled worker a while (a collected payment): made in a
 * batch at the first need, concurrently, so the run waits for the worker once rather than once per call. */
const stocks = new Map<string, Promise<any>[]>();
function fromStock<T>(key: string, batch: number, make: () => Promise<T>): Promise<T> {
  let stock = stocks.get(key);
  if (!stock?.length) {
    stock = Array.from({ length: batch }, () => {
      const made = make();
      made.catch(() => {}); // reported by the call that takes it
      return made;
    });
    stocks.set(key, stock);
  }
  return stock.shift()!;
}

/** A collected payment of its own (a refund, a shipment, a resolution center case). */
const collected = (ctx: HintContext): Promise<any> => fromStock('collected payment', 16, () => payment(ctx, { settled: true }));

/** A live membership: a purchase of a fresh renewal plan (a user's purchases of one plan renew one membership). */
function membership(ctx: HintContext): Promise<string> {
  return fromStock('membership', 10, async () => {
    const plan = await ctx.call('POST', '/variants', { ...ofAccount(ctx), product_id: ctx.world.productId, plan_type: 'renewal', billing_period: 30, initial_price: 1500, renewal_price: 1500 });
    const paid = await payment(ctx, { body: { amount: undefined, currency: undefined, plan_id: plan.id }, settled: true });
    if (!paid.membership_id) throw new Error(`payment ${paid.id} made no membership: ${JSON.stringify(paid).slice(0, 300)}`);
    return paid.membership_id as string;
  });
}

const UPLOADED = 'smoke';

/** A file whose bytes were uploaded (ready); `parts` > 1: a multipart upload with every part sent, not yet completed. */
async function uploadedFile(ctx: HintContext, parts = 1): Promise<any> {
  const file = await ctx.call('POST', '/files', { filename: 'smoke.txt', content_type: 'text/plain', size: 5 * parts, ...(parts > 1 ? { parts } : {}) });
  const urls: string[] = parts > 1 ? ((file.upload_parts ?? []).map((p: { upload_url: string }) => p.upload_url)) : [file.upload_url];
  if (urls.length !== parts) throw new Error(`POST /files gave ${urls.length} upload links for ${parts} parts: ${JSON.stringify(file).slice(0, 400)}`);
  for (const url of urls) {
    const put = await fetch(url, { method: 'PUT', headers: file.upload_headers ?? {}, body: UPLOADED });
    if (put.status >= 300) throw new Error(`PUT ${url} -> ${put.status} ${await put.text()}`);
  }
  return file;
}

/** A resolution center case the buyer opened on a fresh collected payment (awaiting the merchant). */
async function resolutionCase(ctx: HintContext, awaiting: 'merchant' | 'customer' = 'merchant'): Promise<string> {
  const paid = await collected(ctx);
  const opened = await ctx.call('POST', '/sandbox/resolution_center_cases', { payment_id: paid.id, reason: 'item_not_received', message: 'It never came' });
  if (awaiting === 'customer') await ctx.call('POST', `/resolution_center_cases/${opened.id}/respond`, { message: 'It is on its way' });
  return opened.id;
}

/** An ad group of the seeded campaign, and an ad in it. */
const adGroup = async (ctx: HintContext): Promise<string> =>
  (await ctx.call('POST', '/ad_groups', { ad_campaign_id: ctx.world.campaignId, title: 'Smoke group' })).id;
const ad = async (ctx: HintContext): Promise<string> =>
  (await ctx.call('POST', '/ads', { ad_group_id: await adGroup(ctx), title: 'Smoke ad' })).id;

/** A bounty submission by the buyer on a fresh bounty; `submitted`: its deliverable sent. */
async function bountySubmission(ctx: HintContext, submitted: boolean): Promise<string> {
  const bounty = await ctx.call('POST', '/bounties', { ...ofAccount(ctx), title: 'Smoke bounty', description: 'Find a bug', gross_reward_amount: 10, accepted_submissions_limit: 1 });
  const submission = await ctx.call('POST', '/bounty_submissions', { bounty_id: bounty.id }, { token: ctx.world.buyer.token });
  if (submitted) await ctx.call('POST', `/bounty_submissions/${submission.id}/submit`, DELIVERABLE, { token: ctx.world.buyer.token });
  return submission.id;
}
const DELIVERABLE = { deliverable_type: 'content_url', deliverable_urls: ['https://example.com/post/1'] };

/** A payout method of the account (the first supported method of its country); `held`: the sandbox rail's
 * destination whose payouts wait in review (so one can still be canceled), else one that pays out. */
async function payoutMethod(ctx: HintContext, held = false): Promise<string> {
  const supported = await ctx.call('GET', '/payouts/supported_methods?country=US');
  const method = await ctx.call('POST', '/payouts/methods', {
    supported_payout_method_id: supported.data[0].id, nickname: `Smoke bank ${ctx.unique()}`,
    fields: { account_number: held ? '000333333335' : '000123456789', routing_number: '110000000' },
  });
  return method.id;
}
const payout = async (ctx: HintContext, held = false): Promise<string> =>
  (await ctx.call('POST', '/payouts', { payout_method_id: await payoutMethod(ctx, held), amount: '1.00' })).id;

/** An external account whose sandbox network profile has a lead form (the network derives a Facebook profile's
 * forms from a digest of its handle: sandbox/social_network/profiles.ts), and that form's id. */
async function leadForm(ctx: HintContext): Promise<{ id: string; form_id: string }> {
  let username = '';
  for (let n = 0; ; n++) {
    username = `smoke_forms_${ctx.unique()}_${n}`;
    if (createHash('sha256').update(`facebook:${username}`).digest()[20]! % 3 > 0) break;
  }
  const account = { id: await connectedAccount(ctx, 'facebook', username) };
  const forms = await ctx.call('GET', `/external_accounts/${account.id}/lead_forms`);
  if (!forms.data[0]) throw new Error(`@${username} has no lead form: ${JSON.stringify(forms).slice(0, 300)}`);
  return { id: account.id, form_id: forms.data[0].id };
}

/** An external account the sandbox network has finished connecting (the bundled worker does it on its own). */
async function connectedAccount(ctx: HintContext, platform: string, username = `smoke_${ctx.unique()}`): Promise<string> {
  const made = await ctx.call('POST', '/external_accounts', { ...ofAccount(ctx), platform, username });
  return until(ctx, `connected external account ${made.id}`, async () =>
    ((await ctx.call('GET', `/external_accounts/${made.id}`)).status === 'connected' ? made.id : undefined));
}

/** A ready Economic Intelligence recommendation: the feature turned on once (the first offer
 * the account can pick), after which the bundled worker's generator writes one per rule that holds (the seeded
 * disputes make "respond to disputes" hold). */
let intelligenceOn: Promise<void> | undefined;
async function recommendation(ctx: HintContext): Promise<string> {
  intelligenceOn ??= (async () => {
    const account = await ctx.call('GET', `/accounts/${ctx.world.accountId}`);
    const key = account.economic_intelligence_offers?.[0]?.key;
    if (!key) throw new Error(`no Economic Intelligence offer to pick: ${JSON.stringify(account.economic_intelligence_offers ?? null).slice(0, 300)}`);
    await ctx.call('PATCH', `/accounts/${ctx.world.accountId}/preferences`, { economic_intelligence_duration_key: key });
  })();
  await intelligenceOn;
  const id = await until(ctx, 'unused ready recommendation', async () =>
    (await ctx.call('GET', '/economic_intelligence')).data.find((r: any) => r.status === 'ready')?.id as string | undefined);
  return id;
}

/** A launched (active) campaign: the ads agreement signed once (by answering its verification) and ads billing
 * set to the account's balance, then a fresh campaign set active. */
let adsReady: Promise<void> | undefined;
async function liveCampaign(ctx: HintContext): Promise<string> {
  adsReady ??= (async () => {
    const account = ctx.world.accountId;
    const prefs = await ctx.call('GET', `/accounts/${account}/preferences`);
    if (prefs.ads_agreement?.status === 'pending_signature') {
      const verification = await ctx.call('POST', `/verifications?account_id=${account}`, { purpose: 'ads_agreement', kind: 'business' });
      const asked: any[] = Array.isArray(verification.requested_information) ? verification.requested_information : [];
      await ctx.call('PATCH', `/verifications/${verification.id}`, { requested_information: asked.map((a) => ({ id: a.id, value: 'Smoke Owner' })) });
    }
    let business: string | undefined;
    for (const id of ctx.ids('ldgr_')) {
      const balance = await ctx.call('GET', `/ledger_accounts/${id}`).catch(() => null);
      if (balance?.account_id === account && balance.kind === 'business') business = id;
    }
    if (!business) throw new Error(`no business balance of ${account} among ${ctx.ids('ldgr_').join(', ')}`);
    await ctx.call('PATCH', `/accounts/${account}/preferences`, { ads_payment_methods: { primary: { type: 'platform_balance', id: business } } });
  })();
  await adsReady;
  const campaign = await ctx.call('POST', '/ad_campaigns', { ...ofAccount(ctx), title: 'Smoke live', objective: 'traffic', platform: 'meta', budget_amount: 1000 });
  await ctx.call('PATCH', `/ad_campaigns/${campaign.id}`, { status: 'active' });
  return campaign.id;
}

/** A card of the account's issuing balance, funded. */
async function card(ctx: HintContext): Promise<string> {
  await ctx.call('POST', '/card_top_ups', { ...ofAccount(ctx), amount: 500 });
  return (await ctx.call('POST', '/cards', { ...ofAccount(ctx), name: 'Smoke card' })).id;
}

/** Polls `read` (every 200 ms, up to 60 s: the worker is slow on a loaded machine) until it gives a value: for what
 * the bundled worker makes on its own. */
async function until<T>(ctx: HintContext, what: string, read: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (value !== undefined && value !== null) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${ctx.version}: no ${what} after 60 s`);
}

/** A dispute still open to evidence (the seeding's chargeback payments open one each), each used by one call. */
const usedDisputes = new Set<string>();
async function dispute(ctx: HintContext): Promise<string> {
  const id = await until(ctx, 'unused dispute', async () => {
    const listed = await ctx.call('GET', '/disputes?first=50');
    return listed.data.find((d: any) => !usedDisputes.has(d.id) && d.status === 'needs_response' && !d.evidence_submitted_at)?.id as string | undefined;
  });
  usedDisputes.add(id);
  return id;
}

/** The partner business of the connected account the owner referred (POST /accounts with affiliate_code). */
async function partnerBusiness(ctx: HintContext): Promise<string> {
  const listed = await ctx.call('GET', '/partners/businesses', undefined, 'user_token');
  if (listed.data[0]) return listed.data[0].id;
  await ctx.call('POST', '/accounts', { title: 'Smoke Referred', email: `referred-${ctx.unique()}@example.com`, affiliate_code: ctx.world.ownerUsername });
  return (await ctx.call('GET', '/partners/businesses', undefined, 'user_token')).data[0].id;
}

/** A connected account of the suite's own: what a sandbox clock is put on here, never the suite's account, whose timed
 * work (collections, disputes, the Economic Intelligence generator) must keep running at real time. */
async function childAccount(ctx: HintContext): Promise<string> {
  return (await ctx.call('POST', '/accounts', { title: `Smoke clock ${ctx.unique()}`, email: `clock-${ctx.unique()}@example.com` })).id;
}
const connectedClock = async (ctx: HintContext): Promise<string> =>
  (await ctx.call('POST', '/sandbox/clocks', { account_id: await childAccount(ctx) })).id;

/** Team invitations made by addTeamMember, by version: the invitee's accept takes it (its own token). */
const invitations = new Map<string, { id: string; token: string }>();

const UPS = '1Z999AA10123456784';
const BOUNTY = (ctx: HintContext) => ({ ...ofAccount(ctx), title: 'Smoke bounty', description: 'Find a bug', gross_reward_amount: 10, accepted_submissions_limit: 1 });
const hostname = (ctx: HintContext) => `pay-${ctx.unique()}.example.com`;
const ofAccount = (ctx: HintContext) => ({ account_id: ctx.world.accountId });
/** A fresh key pinned below the latest version, so a pin move to the latest has somewhere to go. */
const keyOnOlderPin = async (ctx: HintContext): Promise<string> =>
  (await ctx.call('POST', '/api_keys', { ...ofAccount(ctx), name: 'Upgrading', role: 'viewer', api_version_date: '2026-08-14' }, 'user_token')).id;
/** A webhook subscription of its own (the world's may be deleted by then), made with what every pin takes, to an
 * event the suite seldom causes: one listening to every event would add a delivery to each later call's work. */
const QUIET_EVENT = 'review.removed';
/** A side-by-side window's end: a day from now. */
const sideBySideUntil = () => new Date(Date.now() + 86_400_000).toISOString();
const webhook = async (ctx: HintContext): Promise<string> =>
  (await ctx.call('POST', '/webhooks', { url: 'https://example.com/hooks', events: [QUIET_EVENT] })).id;
/** A test delivery of a fresh subscription, once its first attempt is over (a delivery being sent cannot be resent). */
async function triedDelivery(ctx: HintContext): Promise<{ id: string; delivery_id: string }> {
  const id = await webhook(ctx);
  const made = await ctx.call('POST', `/webhooks/${id}/test`, { event: QUIET_EVENT });
  await until(ctx, 'a test delivery tried', async () =>
    (await ctx.call('GET', `/webhooks/${id}/deliveries`)).data.find((d: any) => d.id === made.id && d.attempt_count > 0 && d.status !== 'sending'));
  return { id, delivery_id: made.id };
}
const SINCE = '2026-01-01T00:00:00Z';

export const HINTS: Record<string, Hint> = {
  createAccount: { inputs: (ctx) => ({ body: { title: 'Smoke Connected', email: `connected-${ctx.unique()}@example.com` } }) },
  createApiKey: { inputs: (ctx) => ({ body: { ...ofAccount(ctx), name: 'Smoke key', role: 'viewer' } }) },
  createAudience: { inputs: (ctx) => ({ body: { ...ofAccount(ctx), name: 'Smoke list', source_type: 'customer_list', audience_type: 'custom' } }) },
  createBounty: { inputs: (ctx) => ({ body: { ...ofAccount(ctx), title: 'Smoke bounty', description: 'Find a bug', gross_reward_amount: 10, accepted_submissions_limit: 1 } }) },
  createCheckoutConfiguration: { inputs: (ctx) => ({ body: { ...ofAccount(ctx), plan_id: ctx.id('plan_') } }) },
  createDeposit: { inputs: (ctx) => ({ body: { destination: ctx.world.accountId } }) },
  createEvent: { inputs: (ctx) => ({ body: { ...ofAccount(ctx), user: { user_id: ctx.world.buyer.id } } }) },
  createExperiment: { inputs: (ctx) => ({ body: { ...ofAccount(ctx), name: 'Smoke experiment', variants: [{ key: 'a', weight: 5000 }, { key: 'b', weight: 5000 }] } }) },
  generateMedia: { inputs: (ctx) => ({ body: { ...ofAccount(ctx), type: 'image', prompt: 'A mug on a desk' } }) },
  createPaymentMethodDomain: { inputs: (ctx) => ({ body: { ...ofAccount(ctx), domain: hostname(ctx) } }) },
  createPayment: { inputs: async (ctx) => ({ body: { ...ofAccount(ctx), amount: 1200, currency: 'usd', user_id: ctx.world.buyer.id, confirmation_token: await cardToken(ctx) } }) },
  // (older pins: promo_type with amount_off)
  createPromoCode: { inputs: (ctx) => ({ body: { ...ofAccount(ctx), code: `SMOKE${ctx.unique().toUpperCase()}`, percent_off: 10, promo_type: 'percentage', amount_off: ctx.version === headVersion() ? undefined : 10 } }) },
  // A review by a member: the buyer buys a fresh product first (one review per product and user).
  createReview: {
    credential: (ctx) => ({ token: ctx.world.buyer.token }),
    inputs: async (ctx) => {
      const product = await ctx.call('POST', '/products', { ...ofAccount(ctx), title: 'Smoke reviewed' });
      const plan = await ctx.call('POST', '/variants', { ...ofAccount(ctx), product_id: product.id, plan_type: 'one_time', initial_price: 800 });
      await payment(ctx, { body: { amount: undefined, currency: undefined, plan_id: plan.id }, settled: true });
      return { body: { product_id: product.id, stars: 5, title: 'Good course' } };
    },
  },
  createSandboxCryptoTransfer: {
    inputs: async (ctx) => {
      const deposit = await ctx.call('POST', '/deposits', { destination: ctx.world.accountId });
      const address = deposit.methods.crypto.find((m: { network: string }) => m.network === 'ethereum').address;
      return { body: { network: 'ethereum', address, token: 'usdc', amount: '5' } };
    },
  },
  createSetupIntent: { inputs: async (ctx) => ({ body: { ...ofAccount(ctx), user_id: ctx.world.buyer.id, confirmation_token: await cardToken(ctx) } }) },
  createSwap: { inputs: (ctx) => ({ body: { ...ofAccount(ctx), from_token: 'USD', to_token: 'EUR', amount: '1' } }) },
  createSwapQuote: { inputs: () => ({ body: { from_token: 'USD', to_token: 'EUR', amount: '10' } }) },
  createTransfer: { inputs: (ctx) => ({ body: { type: 'claim_link', origin_id: ctx.world.accountId, amount: 100, currency: 'usd' } }) },
  createVariant: { inputs: (ctx) => ({ body: { ...ofAccount(ctx), product_id: ctx.world.productId, plan_type: 'one_time', initial_price: 500 } }) },
  listCheckoutPaymentMethods: { inputs: () => ({ query: { domain: 'shop.example.com' } }) },
  retrieveFinancialReport: { inputs: () => ({ query: PERIOD }) },
  listFinancialReportBreakdown: { inputs: () => ({ query: PERIOD }) },
  retrieveAdDeliveryStats: { inputs: () => ({ query: PERIOD }) },
  retrieveEventStats: { inputs: () => ({ query: PERIOD }) },
  evaluateExperiment: { inputs: (ctx) => ({ body: { subject: { user_id: ctx.world.buyer.id }, subject_id: ctx.world.buyer.id } }) },
  endExperiment: {
    inputs: async (ctx) => {
      const made = await ctx.call('POST', '/experiments', { ...ofAccount(ctx), name: 'Smoke ended', variants: [{ key: 'a', weight: 5000 }, { key: 'b', weight: 5000 }] });
      return { path: { id: made.id } };
    },
  },
  closeBounty: { inputs: async (ctx) => ({ path: { id: (await ctx.call('POST', '/bounties', BOUNTY(ctx))).id } }) },
  createBountySubmission: { inputs: async (ctx) => ({ body: { bounty_id: (await ctx.call('POST', '/bounties', BOUNTY(ctx))).id } }) },
  cancelTransfer: { inputs: async (ctx) => ({ path: { id: (await ctx.call('POST', '/transfers', { type: 'claim_link', origin_id: ctx.world.accountId, amount: 100, currency: 'usd' })).id } }) },
  updateApiKey: { inputs: async (ctx) => ({ path: { id: (await ctx.call('POST', '/api_keys', { ...ofAccount(ctx), name: 'Renamed', role: 'viewer' }, 'user_token')).id }, body: { name: 'Smoke key, renamed' } }) },
  // 1 is a cent at the latest version and a dollar at older pins: either is less than the payment.
  refundPayment: { inputs: async (ctx) => ({ path: { id: (await collected(ctx)).id }, body: { partial_amount: 1 } }) },
  cancelMembership: { inputs: async (ctx) => ({ path: { id: await membership(ctx) } }) },
  openSandboxResolutionCenterCase: { inputs: async (ctx) => ({ body: { payment_id: (await collected(ctx)).id, reason: 'item_not_received', message: 'It never came' } }) },
  rotateApiKey: { inputs: async (ctx) => ({ path: { id: (await ctx.call('POST', '/api_keys', { ...ofAccount(ctx), name: 'Rotated', role: 'viewer' }, 'user_token')).id } }) },
  // A key on an older pin moves to the latest (the default target); one just moved has its way back open.
  moveApiKeyPin: { inputs: async (ctx) => ({ path: { id: await keyOnOlderPin(ctx) }, body: {} }) },
  rollbackApiKeyPin: { inputs: async (ctx) => {
    const id = await keyOnOlderPin(ctx);
    await ctx.call('POST', `/api_keys/${id}/move_pin`, {}, 'user_token');
    return { path: { id } };
  } },
  extendMembership: { inputs: async (ctx) => ({ path: { id: await membership(ctx) }, body: { days: 7 } }) },
  pauseMembership: { inputs: async (ctx) => ({ path: { id: await membership(ctx) } }) },
  resumeMembership: {
    inputs: async (ctx) => {
      const id = await membership(ctx);
      await ctx.call('POST', `/memberships/${id}/pause`, {});
      return { path: { id } };
    },
  },
  uncancelMembership: {
    inputs: async (ctx) => {
      const id = await membership(ctx);
      await ctx.call('POST', `/memberships/${id}/cancel`, { cancel_at_period_end: true });
      return { path: { id } };
    },
  },
  updatePayment: { inputs: async (ctx) => ({ path: { id: (await payment(ctx, { card: CARD.threeDSecure })).id }, body: { return_url: 'https://example.com/back' } }) },
  confirmPaymentAction: { inputs: async (ctx) => ({ path: { id: (await payment(ctx, { card: CARD.threeDSecure })).id }, body: { outcome: 'succeed' } }) },
  voidPayment: { inputs: async (ctx) => ({ path: { id: (await payment(ctx, { card: CARD.threeDSecure })).id } }) },
  capturePayment: { inputs: async (ctx) => ({ path: { id: (await payment(ctx, { body: { capture: false }, settled: true })).id } }) },
  retryPayment: { inputs: async (ctx) => ({ path: { id: (await payment(ctx, { card: CARD.declined, settled: true })).id } }) },
  confirmSetupIntentAction: {
    inputs: async (ctx) => {
      // (a user's second 3-D Secure setup of one card may pass without a challenge: each version its own user)
      const user = ctx.version === headVersion() ? ctx.world.buyer : ctx.world.colleague;
      const intent = await ctx.call('POST', '/setup_intents', { ...ofAccount(ctx), user_id: user.id, confirmation_token: await cardToken(ctx, CARD.threeDSecure) });
      await until(ctx, `setup intent ${intent.id} requiring action`, async () =>
        ((await ctx.call('GET', `/setup_intents/${intent.id}`)).status === 'requires_action' ? true : undefined));
      return { path: { id: intent.id }, body: { outcome: 'succeed' } };
    },
  },
  claimTransfer: {
    inputs: async (ctx) => {
      const link = await ctx.call('POST', '/transfers', { type: 'claim_link', origin_id: ctx.world.accountId, amount: 100, currency: 'usd' });
      return { path: { id: link.id }, body: { code: String(link.claim_url).split('/').pop() } };
    },
    credential: (ctx) => ({ token: ctx.world.buyer.token }),
  },
  retrieveAccountWebsite: {
    // Only an account made from a hosted app has a website: a connected one, from a fresh hosted app (queued or
    // failed by the time it is read: both answer 200).
    inputs: async (ctx) => {
      const blueprint = await ctx.call('POST', '/apps', { ...ofAccount(ctx), name: 'Smoke template', route: `smoke-${ctx.unique().toLowerCase()}` });
      const made = await ctx.call('POST', '/accounts', { title: 'Smoke website', email: `site-${ctx.unique()}@example.com`, blueprint_id: blueprint.id });
      return { path: { id: made.id } };
    },
  },
  promoteAppBuild: {
    inputs: async (ctx) => {
      const file = await uploadedFile(ctx);
      // The bundled worker checks the attachment's SHA-256 against the checksum, then reviews it: promoted once approved.
      const checksum = createHash('sha256').update(UPLOADED).digest('hex');
      const build = await ctx.call('POST', '/app_builds', { app_id: ctx.id('app_'), platform: 'web', attachment: { id: file.id }, checksum, supported_app_view_types: ['hub'] });
      await until(ctx, `app build ${build.id} approved`, async () => {
        const status = (await ctx.call('GET', `/app_builds/${build.id}`)).status;
        if (status === 'rejected') throw new Error(`app build ${build.id} was rejected`);
        return status === 'approved' ? true : undefined;
      });
      return { path: { id: build.id } };
    },
  },
  deleteVariant: {
    inputs: async (ctx) => {
      const product = await ctx.call('POST', '/products', { ...ofAccount(ctx), title: 'Smoke doomed' });
      return { path: { id: (await ctx.call('POST', '/variants', { ...ofAccount(ctx), product_id: product.id, plan_type: 'one_time', initial_price: 700 })).id } };
    },
  },
  deleteProduct: { inputs: async (ctx) => ({ path: { id: (await ctx.call('POST', '/products', { ...ofAccount(ctx), title: 'Smoke doomed' })).id } }) },
  createAd: { inputs: async (ctx) => ({ body: { ad_group_id: await adGroup(ctx), title: 'Smoke ad' } }) },
  retrieveAd: { inputs: async (ctx) => ({ path: { id: await ad(ctx) } }) },
  retrieveAdPost: { inputs: async (ctx) => ({ path: { id: (await ctx.call('GET', `/ads/${await ad(ctx)}`)).post_id } }) },
  updateAd: { inputs: async (ctx) => ({ path: { id: await ad(ctx) }, body: { title: 'Smoke ad, renamed' } }) },
  pauseAd: { inputs: async (ctx) => ({ path: { id: await ad(ctx) } }) },
  unpauseAd: {
    inputs: async (ctx) => {
      const id = await ad(ctx);
      await ctx.call('POST', `/ads/${id}/pause`, {});
      return { path: { id } };
    },
  },
  deleteAd: { inputs: async (ctx) => ({ path: { id: await ad(ctx) } }) },
  deleteAdGroup: { inputs: async (ctx) => ({ path: { id: await adGroup(ctx) } }) },
  createPayoutMethod: {
    inputs: async (ctx) => ({
      body: {
        supported_payout_method_id: (await ctx.call('GET', '/payouts/supported_methods?country=US')).data[0].id, nickname: `Smoke bank ${ctx.unique()}`,
        destination_id: (await ctx.call('GET', '/payouts/supported_methods?country=US')).data[0].id,
        fields: { account_number: '000123456789', routing_number: '110000000' },
      },
    }),
  },
  createPayout: { inputs: async (ctx) => ({ body: { payout_method_id: await payoutMethod(ctx), amount: '1.00' } }) },
  retrievePayout: { inputs: async (ctx) => ({ path: { id: await payout(ctx) } }) },
  retrieveWithdrawal: { inputs: async (ctx) => ({ path: { id: await payout(ctx) } }) },
  cancelPayout: { inputs: async (ctx) => ({ path: { id: await payout(ctx, true) } }) },
  archiveSandboxExternalAccountLeadForm: { inputs: async (ctx) => ({ path: await leadForm(ctx) }) },
  pauseAdCampaign: { inputs: async (ctx) => ({ path: { id: await liveCampaign(ctx) } }) },
  unpauseAdCampaign: {
    inputs: async (ctx) => {
      const id = await liveCampaign(ctx);
      await ctx.call('POST', `/ad_campaigns/${id}/pause`, {});
      return { path: { id } };
    },
  },
  removeTeamMember: { inputs: (ctx) => ({ path: { id: invitations.get(ctx.version)?.id ?? 'tmem_none' } }) },
  // A UPS tracking number (its carrier is recognised from it); older pins call it tracking_code.
  createShipment: { inputs: async (ctx) => ({ body: { payment_id: (await collected(ctx)).id, tracking_number: UPS, tracking_code: UPS } }) },
  updateShipment: { inputs: () => ({ body: { tracking_number: UPS, tracking_code: UPS } }) },
  createPlan: { inputs: (ctx) => ({ body: { ...ofAccount(ctx), product_id: ctx.world.productId, plan_type: 'one_time', initial_price: 500 } }) },
  // The owner's own notification: the pool's first may be a colleague's (each team member has a feed), a 404 to the owner.
  markNotificationRead: { inputs: async (ctx) => ({ path: { id: (await ctx.call('GET', '/notifications', undefined, 'user_token')).data[0]?.id ?? 'ntf_none' } }) },
  updateUser: { credential: 'user_token', inputs: (ctx) => ({ path: { id: ctx.world.ownerId }, body: { name: 'Smoke Owner' } }) },
  authorizeCardPurchase: { inputs: async (ctx) => ({ body: { card_id: await card(ctx), amount: 100, merchant_name: 'Smoke Coffee' } }) },
  retrieveCardTransaction: {
    inputs: async (ctx) => {
      await ctx.call('POST', '/sandbox/card_network/authorizations', { card_id: await card(ctx), amount: 100, merchant_name: 'Smoke Coffee' });
      return { path: { id: (await ctx.call('GET', `/card_transactions?account_id=${ctx.world.accountId}`)).data[0].id } };
    },
  },
  retrieveSwap: { inputs: async (ctx) => ({ path: { id: (await ctx.call('POST', '/swaps', { ...ofAccount(ctx), from_token: 'USD', to_token: 'EUR', amount: '1' })).id } }) },
  retrieveStat: { inputs: () => ({ path: { metric: 'gross_revenue' }, query: PERIOD }) },
  retrieveStatTimeSeries: { inputs: () => ({ path: { metric: 'gross_revenue' }, query: PERIOD }) },
  // A new connected account has no product yet: creating one is what is recommended.
  executeAccountRecommendedAction: {
    inputs: async (ctx) => {
      const connected = await ctx.call('POST', '/accounts', { title: 'Smoke Fresh', email: `fresh-${ctx.unique()}@example.com` });
      return { path: { id: connected.id }, body: { action: 'create_product' } };
    },
  },
  deleteAdCampaign: {
    inputs: async (ctx) => ({ path: { id: (await ctx.call('POST', '/ad_campaigns', { ...ofAccount(ctx), title: 'Smoke doomed', objective: 'traffic', platform: 'meta', budget_amount: 1000 })).id } }),
  },
  createClock: { inputs: async (ctx) => ({ body: { account_id: await childAccount(ctx) } }) },
  retrieveClock: { inputs: async (ctx) => ({ path: { id: await connectedClock(ctx) } }) },
  advanceClock: { inputs: async (ctx) => ({ path: { id: await connectedClock(ctx) }, body: { frozen_time: new Date(Date.now() + 86_400_000).toISOString() } }) },
  deleteClock: { inputs: async (ctx) => ({ path: { id: await connectedClock(ctx) } }) },
  // A connected account of its own: a review holds the account's funds, which the world's payouts need.
  startComplianceReview: { inputs: async (ctx) => ({ path: { id: (await ctx.call('POST', '/accounts', { title: `Smoke review ${ctx.unique()}`, email: `review-${ctx.unique()}@example.com` })).id } }) },
  resolveComplianceReview: { inputs: async (ctx) => ({ path: { id: (await ctx.call('POST', '/accounts', { title: `Smoke review ${ctx.unique()}`, email: `review-${ctx.unique()}@example.com` })).id } }) },
  listClocks: { inputs: async (ctx) => ({ query: { account_id: ctx.world.accountId } }) },
  retrieveDispute: { inputs: async (ctx) => ({ path: { id: await until(ctx, 'a dispute', async () => (await ctx.call('GET', '/disputes?first=1')).data[0]?.id as string | undefined) } }) },
  updateDispute: { inputs: async (ctx) => ({ path: { id: await dispute(ctx) } }) },
  updateDisputeEvidence: { inputs: async (ctx) => ({ path: { id: await dispute(ctx) }, body: { notes: 'Delivered on time', customer_name: 'Smoke Buyer' } }) },
  submitDispute: { inputs: async (ctx) => ({ path: { id: await dispute(ctx) } }) },
  retrieveDisputeAlert: { inputs: async (ctx) => ({ path: { id: await until(ctx, 'a dispute alert', async () => (await ctx.call('GET', '/dispute_alerts')).data[0]?.id) } }) },
  retrievePartnerBusiness: { inputs: async (ctx) => ({ path: { id: await partnerBusiness(ctx) } }) },
  listPartnerBusinessEarnings: { inputs: async (ctx) => ({ path: { id: await partnerBusiness(ctx) } }) },
  removePartnerBusiness: { inputs: async (ctx) => ({ path: { id: await partnerBusiness(ctx) } }) },
  submitBountySubmission: { credential: (ctx) => ({ token: ctx.world.buyer.token }), inputs: async (ctx) => ({ path: { id: await bountySubmission(ctx, false) }, body: DELIVERABLE }) },
  reviewBountySubmission: { inputs: async (ctx) => ({ path: { id: await bountySubmission(ctx, true) }, body: { decision: 'approve' } }) },
  completeFile: { inputs: async (ctx) => ({ path: { id: (await uploadedFile(ctx, 2)).id } }) },
  respondToResolutionCenterCase: { inputs: async (ctx) => ({ path: { id: await resolutionCase(ctx) }, body: { message: 'On its way' } }) },
  escalateResolutionCenterCase: { inputs: async (ctx) => ({ path: { id: await resolutionCase(ctx) }, body: { message: 'Please decide' } }) },
  refundResolutionCenterCase: { inputs: async (ctx) => ({ path: { id: await resolutionCase(ctx) }, body: { message: 'Refunded' } }) },
  closeResolutionCenterCase: { inputs: async (ctx) => ({ path: { id: await resolutionCase(ctx, 'customer') }, body: { message: 'Solved' } }) },
  replySandboxResolutionCenterCase: { inputs: async (ctx) => ({ path: { id: await resolutionCase(ctx, 'customer') }, body: { message: 'Thanks' } }) },
  withdrawSandboxResolutionCenterCase: { inputs: async (ctx) => ({ path: { id: await resolutionCase(ctx) } }) },
  addTeamMember: {
    inputs: (ctx) => ({ body: { ...ofAccount(ctx), user_id: ctx.version === headVersion() ? ctx.world.buyer.id : ctx.world.colleague.id, username: undefined, role: 'admin' } }),
    after: (ctx, made) => invitations.set(ctx.version, { id: made.id, token: (ctx.version === headVersion() ? ctx.world.buyer : ctx.world.colleague).token }),
  },
  acceptTeamInvitation: {
    credential: (ctx) => ({ token: invitations.get(ctx.version)?.token ?? 'none' }),
    inputs: (ctx) => ({ path: { id: invitations.get(ctx.version)?.id ?? 'tmem_none' } }),
  },
  updateVerification: {
    inputs: async (ctx) => {
      const made = await ctx.call('POST', `/verifications?account_id=${ctx.world.accountId}`, { purpose: 'identity', kind: 'individual' });
      const asked: any[] = made.requested_information ?? [];
      if (!asked.length) throw new Error(`the verification asks for nothing: ${JSON.stringify(made).slice(0, 300)}`);
      return { path: { id: made.id }, body: { requested_information: [{ id: asked[0].id, value: 'Smoke Person' }] } };
    },
  },
  deleteSocialAccount: {
    inputs: async (ctx) => ({ path: { id: (await ctx.call('POST', '/external_accounts', { ...ofAccount(ctx), platform: 'x', username: `smoke_${ctx.unique()}` })).id } }),
  },
  publishSandboxExternalAccountPost: { inputs: async (ctx) => ({ path: { id: await connectedAccount(ctx, 'instagram') }, body: { caption: 'Hello' } }) },
  retrieveEconomicIntelligenceRecommendation: { inputs: async (ctx) => ({ path: { id: await recommendation(ctx) } }) },
  // Run at the latest version (ready -> running), executed at the older pin (running -> executed: its enum has no running).
  updateEconomicIntelligenceRecommendation: {
    inputs: async (ctx) => {
      if (ctx.version === headVersion()) return { path: { id: await recommendation(ctx) }, body: { status: 'running' } };
      const running = await until(ctx, 'running recommendation', async () =>
        (await ctx.call('GET', '/economic_intelligence')).data.find((r: any) => r.status === 'running')?.id as string | undefined);
      return { path: { id: running }, body: { status: 'executed' } };
    },
  },
  publishPaymentMethodDomainProof: { inputs: async (ctx) => ({ path: { id: (await ctx.call('POST', '/payment_method_domains', { ...ofAccount(ctx), domain: hostname(ctx) })).id } }) },
  resendWebhookDelivery: { inputs: async (ctx) => ({ path: await triedDelivery(ctx) }) },
  replayWebhook: { inputs: async (ctx) => ({ path: { id: await webhook(ctx) }, body: { since: SINCE } }) },
  retrieveWebhookReplay: { inputs: async (ctx) => ({ path: { id: (await ctx.call('POST', `/webhooks/${await webhook(ctx)}/replay`, { since: SINCE })).id } }) },
  rotateWebhookSecret: { inputs: async (ctx) => ({ path: { id: await webhook(ctx) } }) },
  testWebhook: { inputs: async (ctx) => ({ path: { id: await webhook(ctx) }, body: { event: QUIET_EVENT } }) },
  // the fresh subscription is unpinned, so any version is a second one; until within the 30 days
  openWebhookSideBySide: { inputs: async (ctx) => ({ path: { id: await webhook(ctx) }, body: { version: headVersion(), until: sideBySideUntil() } }) },
  endWebhookSideBySide: {
    inputs: async (ctx) => {
      const id = await webhook(ctx);
      await ctx.call('POST', `/webhooks/${id}/side_by_side`, { version: headVersion(), until: sideBySideUntil() });
      return { path: { id }, body: { keep: 'current' } };
    },
  },
};

/** Operations whose 2xx needs a state that only time or an outside event brings; the reason is printed. */
export const UNREACHABLE: Record<string, string> = {
  retryAdCampaignPayment: 'needs an ads charge that was declined: each delivered hour of a live campaign is one charge '
    + '(handlers/ads/billing.ts), so the first exists an hour after launch (older pins only; gone from 2026-08-25)',
};
