// The same-work baseline the framework is measured against: the benchmarked requests written by hand on Koa and one
// pg.Pool. It does the work the framework does for each (runtime/auth.ts and runtime/access.ts with their per-process
// caches, runtime/shared-cache.ts; and the handlers: handlers/accounts/retrieveAccount.ts and account-view.ts;
// GET /payments/{id} (declared plain: runtime/plain/retrieve.ts), handlers/payments/listPayments.ts and
// createPayment.ts, with the declared statements of generated/resources.ts), query for query, with the same SQL, and renders the same JSON; what it leaves out is the
// framework itself. Keep it in step with those files: bench/run.ts compares the responses and the number of
// queries before measuring. (bench/expert-server.ts is the other baseline: the fewest statements, not the same ones.)

// Composed as a server process is: it runs handlers and runtime code that read the API's definition.
import '../wiring/compose.js';
import { createHash, randomBytes } from 'node:crypto';
import Koa from 'koa';
import Router from '@koa/router';
import pg from 'pg';
import { specData } from '../generated/spec-data.js';
import { resources } from '../generated/resources.js';
import { CREATE, HELD, LOCK, ADD } from '../handlers/people/identify.js';
import { INSERT_EVENT } from '../handlers/people/createEvent.js';
import { MEMBER_AND_VARIANT } from '../handlers/payments/payment-source.js';
import { openingStatements, recordStatement, requestHash } from '../runtime/idempotency.js';
import { money as moneyIn } from '../runtime/money.js';
import { addJobsStatement } from '../runtime/request-db.js';
import { jobRow } from '../runtime/jobs.js';

pg.types.setTypeParser(1184, (v) => new Date(v).toISOString());
pg.types.setTypeParser(20, (v) => Number(v));

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
let queries = 0;
const recent: string[] = []; // the latest statements, for bench/run.ts to show when the two sides differ

/** A statement with parameters is prepared once per connection and then run by name, as the framework's fixed SQL is
 * (runtime/request-db.ts query): the comparison is of the framework's own work, not of PostgreSQL planning. */
const names = new Map<string, string>();
function statement(text: string, values: unknown[]): pg.QueryConfig {
  if (!values.length) return { text, values };
  let name = names.get(text);
  if (!name) names.set(text, (name = `baseline_${names.size + 1}`));
  return { name, text, values };
}

/** Counts a statement and keeps it among the latest 50. */
function counted(text: string): void {
  queries++;
  recent.push(text);
  if (recent.length > 50) recent.shift();
}

/** `prepared` false: a statement the framework builds with knex, which sends it unnamed (parsed and planned each time). */
async function rows(text: string, values: unknown[] = [], prepared = true): Promise<Record<string, any>[]> {
  counted(text);
  return (await pool.query(prepared ? statement(text, values) : { text, values })).rows;
}

class Failure extends Error {
  constructor(readonly status: number, readonly type: string, message: string) {
    super(message);
  }
}

// The version a key's pin resolves to: the newest released version on or before it.
const VERSIONS: readonly string[] = specData.versions;
const FIRST_VERSION = VERSIONS[VERSIONS.length - 1];
function versionFor(pin: Date | null): string {
  if (!pin) return FIRST_VERSION;
  const p = (n: number) => String(n).padStart(2, '0');
  const date = `${pin.getFullYear()}-${p(pin.getMonth() + 1)}-${p(pin.getDate())}`;
  return VERSIONS.find((v) => v <= date) ?? FIRST_VERSION;
}

function roleAllows(role: string, scope: string): boolean {
  const granted = (specData.roles as Record<string, readonly string[]>)[role] ?? [];
  return granted.some((g) => g === '*' || g === scope || (g.endsWith(':*') && scope.startsWith(g.slice(0, -1))));
}

interface Key {
  id: string;
  account_id: string;
  role: string | null;
  ip_allowlist: string[];
  api_version_date: Date | null;
}

// What the framework caches per process (runtime/shared-cache.ts), kept here for the run: the benchmark neither
// revokes keys nor moves accounts, so no invalidation is needed to do the same work.
const keysByHash = new Map<string, Record<string, any> | undefined>();
const visibility = new Map<string, Record<string, any> | undefined>();
let referenceTables: Promise<[Record<string, any>[], Record<string, any>[]]> | null = null;

async function authenticate(header: string): Promise<Key> {
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (!bearer || !bearer[1].startsWith('sk_')) throw new Failure(401, 'authentication_required', 'Send Authorization: Bearer <API key>');
  const hash = createHash('sha256').update(bearer[1]).digest('hex');
  if (!keysByHash.has(hash)) keysByHash.set(hash, (await rows(
    'select "id", "account_id", "role", "statements", "ip_allowlist", "api_version_date", "expires_at", "revoked_at", "last_used_at" from "api_keys" where "secret_hash" = $1 limit $2',
    [hash, 1],
  ))[0]);
  const key = keysByHash.get(hash);
  if (!key) throw new Failure(401, 'authentication_required', 'Unknown API key');
  if (key.revoked_at) throw new Failure(401, 'authentication_required', 'This API key has been revoked');
  if (key.expires_at && Date.parse(key.expires_at) <= Date.now()) throw new Failure(401, 'authentication_required', 'This API key has expired');
  if (key.ip_allowlist.length) throw new Failure(401, 'authentication_required', 'IP allowlists are not part of the baseline');
  // Last use is recorded at minute resolution, so a busy key skips the write.
  if (!key.last_used_at || Date.now() - Date.parse(key.last_used_at) >= 60_000) {
    key.last_used_at = new Date().toISOString();
    await rows(
      'update "api_keys" set "last_used_at" = CURRENT_TIMESTAMP where "id" = $1 and ("last_used_at" is null or "last_used_at" < now() - interval \'1 minute\')',
      [key.id],
    );
  }
  return key as Key;
}

const money = (amount: number) => ({ amount, currency: 'usd', decimals: 2, display_decimals: 2 });

async function account(key: Key, id: string) {
  // Visible: the key's own account or one of its connected accounts; anything else is a 404.
  if (!(await visibleAccount(key, id))) throw new Failure(404, 'not_found', `No such account: '${id}'`);
  const may = (scope: string) => key.role !== null && roleAllows(key.role, scope);
  if (!may('company:basic:read')) throw new Failure(403, 'permission_denied', `This credential lacks the company:basic:read permission on ${id}`);
  referenceTables ??= Promise.all([
    rows('select * from reward_milestones order by threshold_usd'),
    rows('select * from economic_intelligence_offers order by position'),
  ]);
  const [milestones, offers] = await referenceTables;
  // One statement: the account (what its view reads), its parent, its balances and its reward payouts.
  const [row] = await rows(resources.Account.viewById ?? resources.Account.byId, [id]);
  const parent = row.parent_id ? { id: row['parent_account.id'], title: row['parent_account.title'], route: row['parent_account.route'], logo_url: row['parent_account.logo_url'] } : null;
  const sums: Record<string, number> = row.$balance ?? {};
  const sum = (bucket: string) => money(Number(sums[bucket] ?? 0));
  const paid = new Map(Object.entries(row.$rewards ?? {}));
  const now = Date.now();
  const eiOn = row.economic_intelligence_ends_at && Date.parse(row.economic_intelligence_ends_at) > now;
  const eiTrial = row.economic_intelligence_trial_ends_at && Date.parse(row.economic_intelligence_trial_ends_at) > now;
  const rewardsVisible = may('company:balance:read') || may('stats:read');
  return {
    id: row.id,
    title: row.title,
    email: row.email,
    route: row.route,
    logo_url: row.logo_url,
    country: row.country,
    status: row.status,
    parent_account: parent,
    business_type: row.business_type,
    industry_type: row.industry_type,
    metadata: row.metadata,
    send_customer_emails: row.send_customer_emails,
    affiliate_code: row.affiliate_code,
    blueprint_id: row.blueprint_id,
    three_d_secure_policy: row.three_d_secure_policy,
    payment_controls: { undated_pending_reason: row.undated_pending_reason },
    balance: { available: sum('available'), pending: sum('pending'), in_transit: sum('in_transit') },
    rewards: rewardsVisible
      ? milestones.map((m) => {
        const qualified = row.lifetime_volume_usd >= m.threshold_usd;
        return {
          id: m.id,
          title: m.title,
          threshold: money(m.threshold_usd),
          progress: money(Math.min(row.lifetime_volume_usd, m.threshold_usd)),
          qualified,
          payout_status: qualified ? (paid.get(m.id) ?? 'pending') : 'not_qualified',
        };
      })
      : [],
    economic_intelligence_ends_at: row.economic_intelligence_ends_at,
    economic_intelligence_offers: eiOn || eiTrial ? [] : offers.map((o) => ({
      key: o.key, duration: o.duration, duration_unit: o.duration_unit, auto_renew: o.auto_renew,
      price: { amount: o.price_amount, currency: o.currency, decimals: 2, display_decimals: 2 },
    })),
    tax_remitted_by: row.tax_remitted_by,
    tax_type: row.tax_type,
    product_tax_code_id: row.product_tax_code_id,
    business_address: row.business_address,
    tax_identifiers: row.tax_identifiers,
    // Only the account's own keys see its client id; the benchmark reads a connected account with its parent's key.
    client_id: row.id === key.account_id ? row.client_id : null,
    allowed_origins: row.allowed_origins,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The key's own account or one of its connected accounts (runtime/access.ts); else null. */
async function visibleAccount(key: Key, id: string) {
  if (!visibility.has(id)) visibility.set(id, (await rows('select id, parent_id from accounts where id = $1', [id]))[0]);
  const visible = visibility.get(id);
  return visible && (visible.id === key.account_id || visible.parent_id === key.account_id) ? visible : null;
}

/** handlers/payments/payment-view.ts */
function paymentView(row: Record<string, any>, list = false) {
  const m = (amount: number | string) => moneyIn(Number(amount), String(row.currency));
  const collected = ['succeeded', 'refunded', 'partially_refunded'].includes(row.status);
  return {
    id: row.id,
    account_id: row.account_id,
    plan_id: row.plan_id,
    product_id: row.product_id,
    membership_id: row.membership_id,
    member_id: row.member_id,
    promo_code_id: row.promo_code_id,
    shipment_id: row.shipment_id,
    payment_method_id: row.payment_method_id,
    user: row.user_id ? { id: row.user_id, username: row['user.username'], name: row['user.name'], profile_picture: row['user.profile_picture'] } : null,
    total: m(row.total),
    subtotal: m(row.subtotal),
    discount_amount: m(row.discount_amount ?? 0),
    tax_amount: m(row.tax_amount),
    refunded_amount: m(row.refunded_amount),
    tax_refunded_amount: m(row.tax_refunded_amount),
    amount_after_fees: m(collected ? Number(row.total) - Number(row.fee_amount) : 0),
    usd_total: money(Number(row.usd_total)),
    billing_reason: row.billing_reason,
    currency: row.currency,
    status: row.status,
    last_payment_attempt_at: row.last_payment_attempt_at,
    next_payment_attempt_at: row.next_payment_attempt_at,
    settlement_time_at: list ? null : row.settlement_time_at,
    payment_instrument: row.payment_instrument,
    payment_method_type: row.payment_method_type,
    next_action: row.next_action,
    failure_code: row.failure_code,
    failure_message: row.failure_message,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

// The declared Payment's statement for its view (generated/resources.ts), as the list's query builder writes it
const PAYMENT_ROWS = `select ${resources.Payment.viewSelect ?? resources.Payment.columns} from ${resources.Payment.from}`;

/** GET /payments/{id}: find-payment.ts: the payment with its buyer in one statement (what its view reads), then its
 * account's visibility and the scope (cached). */
async function payment(key: Key, id: string) {
  const [row] = await rows(resources.Payment.viewById ?? resources.Payment.byId, [id]);
  if (!row || !(await visibleAccount(key, row.account_id))) throw new Failure(404, 'not_found', `No such payment: '${id}'`);
  if (!key.role || !roleAllows(key.role, 'payment:basic:read')) throw new Failure(403, 'permission_denied', 'This credential lacks the payment:basic:read permission');
  return paymentView(row);
}

const encodeCursor = (value: string, id: string) => Buffer.from(JSON.stringify([value, id])).toString('base64url');

/** GET /payments?account_id=&first=: the account's visibility and scope (runtime/access.ts), then one keyset page. */
async function payments(key: Key, accountId: string, first: number) {
  if (!(await visibleAccount(key, accountId))) throw new Failure(404, 'not_found', `No such account: '${accountId}'`);
  if (!key.role || !roleAllows(key.role, 'payment:basic:read')) throw new Failure(403, 'permission_denied', 'This credential lacks the payment:basic:read permission');
  // The account as the page's leading range, as the framework writes it (runtime/pagination.ts, Leading): an
  // unfiltered led page is prepared, with the account hidden from the planner, so its generic plan is kept.
  const fetched = await rows(`${PAYMENT_ROWS} where payments.account_id >= (select $1::text) and payments.account_id <= (select $2::text) `
    + 'order by payments.account_id desc, "payments"."created_at" desc, "payments"."id" desc limit $3',
    [accountId, accountId, first + 1]);
  const page = fetched.slice(0, first);
  const cursor = (row: Record<string, any> | undefined) => (row ? encodeCursor(row.created_at, row.id) : null);
  return {
    data: page.map((r) => paymentView(r, true)),
    page_info: { start_cursor: cursor(page[0]), end_cursor: cursor(page[page.length - 1]), has_next_page: fetched.length > first, has_previous_page: false },
  };
}

/**
 * POST /payments by hand: the same rows the framework writes for a saved-card charge with an Idempotency-Key (the
 * idempotency record, the payment and its collection job) in one transaction, with the lookups that must precede
 * them (the account's visibility, the variant's price, the member's card). It skips the framework's validation,
 * response view and version handling.
 */
async function createPayment(key: Key, idempotencyKey: string, body: Record<string, string>) {
  if (!(await visibleAccount(key, body.account_id))) throw new Failure(404, 'not_found', 'No such account');
  const hash = requestHash('createPayment', {}, body);
  // As the framework does (runtime/idempotency.ts): the key's lock and stored response read with BEGIN, in one round
  // trip; the payment; the key's record and the collection's job sent with the COMMIT.
  return transaction(async (q, opened, atCommit) => {
    if (!opened[0][0]?.locked || opened[1].length) throw new Failure(409, 'idempotency_in_progress', 'Replays are not part of the baseline');
    // The framework's one read (handlers/payments/payment-source.ts): the member, its buyer and card, and the variant.
    const [method] = await q(MEMBER_AND_VARIANT, [body.member_id, body.account_id, body.payment_method_id, body.plan_id]);
    const plan = method?.$variant;
    if (!plan || !method.method_id) throw new Failure(404, 'not_found', 'No such variant or payment method');
    const id = `pay_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
    const [payment] = await q(`insert into payments (id, account_id, plan_id, product_id, member_id, user_id,
      payment_method_id, status, billing_reason, currency, subtotal, tax_amount, total, usd_total, off_session, payment_instrument)
      values ($1, $2, $3, $4, $5, $6, $7, 'processing', 'one_time', $8, $9, 0, $9, $9, true, $10) returning *`,
    [id, body.account_id, plan.id, plan.product_id, body.member_id, method.user_id, method.method_id, plan.currency, plan.initial_price,
      JSON.stringify({ brand: method.card_brand, last4: method.last4, exp_month: method.exp_month, exp_year: method.exp_year })]);
    atCommit(recordStatement(key.id, idempotencyKey, 'createPayment', hash, { status: 201, body: payment }));
    // The collection's job, as a request's jobs are added (runtime/request-db.ts jobAtCommit).
    atCommit(addJobsStatement([jobRow('collect_payment', { payment_id: id }, { jobKey: `collect_payment:${id}` })]));
    return payment;
  }, openingStatements(key.id, idempotencyKey));
}

type Q = (text: string, values: unknown[]) => Promise<Record<string, any>[]>;

/** `work` in one transaction on one pooled connection, each statement counted and prepared like rows()'s. `opening`
 * statements (constant SQL) are sent with BEGIN in one round trip, their rows given to `work`; what `work` passes to
 * `atCommit` (constant SQL) is sent with the COMMIT. */
async function transaction<T>(work: (q: Q, opened: Record<string, any>[][], atCommit: (sql: string) => void) => Promise<T>,
  opening: string[] = []): Promise<T> {
  const client = await pool.connect();
  const q: Q = async (text, values) => {
    counted(text);
    return (await client.query(statement(text, values))).rows;
  };
  const simple = async (statements: string[]) => {
    counted(statements.join('; '));
    const result = await client.query(statements.join('; ')) as unknown as { rows: any[] } | { rows: any[] }[];
    return Array.isArray(result) ? result.map((r) => r.rows) : [result.rows];
  };
  const closing: string[] = [];
  try {
    const opened = (await simple(['begin', ...opening])).slice(1);
    const result = await work(q, opened, (sql) => closing.push(sql));
    await simple([...closing, 'commit']);
    return result;
  } catch (e) {
    await client.query('rollback');
    throw e;
  } finally {
    client.release();
  }
}

/**
 * POST /events by hand (handlers/people/createEvent.ts and identify.ts, for an anonymous visitor: the bench's
 * events): in one transaction, the identity's advisory lock, its person, a new person and identity when there is
 * none, then the event with its person's counts, with the same statements; the event answered as its row is. It
 * skips the framework's validation, response view and version handling.
 */
async function createEvent(key: Key, body: { account_id: string; event_name: string; url: string; user: { anonymous_id: string } }) {
  if (!(await visibleAccount(key, body.account_id))) throw new Failure(404, 'not_found', 'No such account');
  if (key.role === null || !roleAllows(key.role, 'event:create')) throw new Failure(403, 'permission_denied', 'event:create');
  const id = () => randomBytes(12).toString('base64url').replace(/[-_]/g, 'x').slice(0, 16);
  return transaction(async (q) => {
    const anonymous = body.user.anonymous_id;
    await q(LOCK, [[`${body.account_id}:anonymous_id:${anonymous}`]]);
    const [held] = await q(HELD, [body.account_id, ['anonymous_id'], [anonymous]]);
    let personId = held?.person_id as string | undefined;
    if (!personId) {
      personId = `prsn_${id()}`;
      await q(CREATE, [personId, body.account_id, null, null]);
      await q(ADD, [body.account_id, ['anonymous_id'], [anonymous], personId]);
    }
    const eventId = `cevt_${id()}`;
    const [event] = await q(INSERT_EVENT, [eventId, body.account_id, personId, null, body.event_name, null, null, null,
      body.url, null, null, null, null, null, null, null, null, null, null, null, null, null, null, '{}', '{}', null, null]);
    return event;
  });
}

const app = new Koa();
const router = new Router({ prefix: '/api/v1' });
router.get('/accounts/:id', async (ctx) => {
  const key = await authenticate(ctx.get('Authorization'));
  ctx.set('Api-Version-Date', versionFor(key.api_version_date));
  ctx.body = await account(key, ctx.params.id);
});
router.get('/payments/:id', async (ctx) => {
  const key = await authenticate(ctx.get('Authorization'));
  ctx.set('Api-Version-Date', versionFor(key.api_version_date));
  ctx.body = await payment(key, ctx.params.id);
});
router.get('/payments', async (ctx) => {
  const key = await authenticate(ctx.get('Authorization'));
  ctx.set('Api-Version-Date', versionFor(key.api_version_date));
  const { account_id: accountId, first, ...rest } = ctx.query;
  if (typeof accountId !== 'string' || Object.keys(rest).length) throw new Failure(400, 'invalid_request', 'Only account_id and first are part of the baseline');
  ctx.body = await payments(key, accountId, first === undefined ? 10 : Number(first));
});
router.post('/payments', async (ctx) => {
  const key = await authenticate(ctx.get('Authorization'));
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  ctx.status = 201;
  ctx.body = await createPayment(key, ctx.get('Idempotency-Key'), JSON.parse(Buffer.concat(chunks).toString('utf8')));
});
router.post('/events', async (ctx) => {
  const key = await authenticate(ctx.get('Authorization'));
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  ctx.status = 201;
  ctx.body = await createEvent(key, JSON.parse(Buffer.concat(chunks).toString('utf8')));
});
// A metric series written the obvious way: the payments of the window summed by day (UTC) from the payments
// table itself. The framework reads rollups instead (migrations/310_stat_rollups.ts); bench/scenarios.ts compares
// the two on a year of a million payments. Gross revenue by day only; the same points as the framework's.
const SCAN = `with days as (select d from generate_series($2::date, $3::date, interval '1 day') d),
  sums as (select date_trunc('day', coalesce(settlement_time_at, created_at) at time zone 'UTC') as d, sum(total) as value, count(*) as count
    from payments where account_id = $1 and currency = 'usd' and status in ('succeeded', 'refunded', 'partially_refunded')
      and coalesce(settlement_time_at, created_at) >= $2::date::timestamp at time zone 'UTC'
      and coalesce(settlement_time_at, created_at) < ($3::date + 1)::timestamp at time zone 'UTC'
    group by 1)
  select to_char(days.d, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as timestamp, coalesce(sums.value, 0)::bigint as value, coalesce(sums.count, 0)::bigint as count
  from days left join sums on sums.d = days.d order by days.d`;
router.get('/stats/time_series/:metric', async (ctx) => {
  const key = await authenticate(ctx.get('Authorization'));
  ctx.set('Api-Version-Date', versionFor(key.api_version_date));
  const { account_id: accountId, from, to } = ctx.query;
  if (ctx.params.metric !== 'gross_revenue' || typeof accountId !== 'string') throw new Failure(400, 'invalid_request', 'Only gross_revenue by account_id is part of the baseline');
  ctx.body = { data: { metric: 'gross_revenue', points: await rows(SCAN, [accountId, from, to]) } };
});
app.use(async (ctx, next) => {
  const requestId = `req_${randomBytes(12).toString('base64url')}`;
  ctx.set('Request-Id', requestId);
  try {
    await next();
  } catch (e) {
    const f = e instanceof Failure ? e : new Failure(500, 'api_error', 'Something went wrong');
    ctx.status = f.status;
    ctx.body = { error: { type: f.type, message: f.message, request_id: requestId } };
  }
});
app.use(router.routes());

const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.send!({ url: `http://127.0.0.1:${port}` });
});
server.keepAliveTimeout = 5000;
process.on('message', (message: { type: string }) => {
  if (message.type === 'queries') process.send!({ queries, recent });
  if (message.type === 'cpu') process.send!(process.cpuUsage());
  if (message.type === 'stop') {
    server.closeAllConnections();
    process.exit(0);
  }
});
