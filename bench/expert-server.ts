// The expert baseline: what someone who knows Node and PostgreSQL well would write by hand for the benchmarked
// requests, on Fastify and one plain pg.Pool, with the fewest statements: each read is one statement that
// authenticates the API key (SHA-256 hash against api_keys, as runtime/auth.ts does), checks the account's visibility
// and reads everything the response needs; POST /payments is four (the reads; BEGIN with the Idempotency-Key's
// transaction-scoped advisory lock; one statement that writes the payment and its collection job; the idempotency
// record, its response sealed as the framework seals it, with COMMIT). Its bodies equal the framework's (bench/run.ts
// compares them, and after POST /payments and POST /payouts the rows written). Unlike bench/baseline-server.ts it
// does not do the framework's work: it is the target to measure the framework against, not a measure of the
// framework's own overhead.
//
// It serves the newest API version only, API keys only, and the inputs the benchmark sends (GET /payments by
// account_id with first/after; POST /payments as a saved-card charge of a variant with an Idempotency-Key); anything
// else is a 400 that says so. Reference tables (reward milestones, offers) are read per request, as the framework
// does: nothing is cached across requests.
//
// EXPERT_JSON=js (the default) assembles the responses in JavaScript from the statement's columns; EXPERT_JSON=sql
// has PostgreSQL build the response text, which is sent as it is. POST /payments builds its body in SQL either way
// (the statement that writes the payment returns it), and stores it sealed as the idempotency record.
import { createHash, randomBytes } from 'node:crypto';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import pg from 'pg';
import { specData } from '../generated/spec-data.js';
import { effectivePolicy, needsAuthentication } from '../sandbox/processor/index.js';
import { usdMinorUnits } from '../handlers/shared/fx-rates.js';
import type { CardBehaviour, ThreeDSecurePolicy } from '../handlers/shared/card-processor-port.js';
import { CURRENCY_EXPONENTS, money } from '../runtime/money.js';
import { isSealed, seal, unseal } from '../runtime/sealed-secrets.js';
import { quoteLiteral } from '../runtime/sql-literal.js';

const JSON_IN: 'js' | 'sql' = process.env.EXPERT_JSON === 'sql' ? 'sql' : 'js';

// Timestamps as ISO 8601 strings and int8 money as numbers, as the framework renders them.
pg.types.setTypeParser(1184, (v) => new Date(v).toISOString());
pg.types.setTypeParser(20, Number);

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 }); // the framework's pool size
let queries = 0;
const recent: string[] = [];

/** Fixed statements with parameters run prepared, by name, as any production pg code with constant SQL should. */
const names = new Map<string, string>();
function count(text: string) {
  queries++;
  recent.push(text);
  if (recent.length > 50) recent.shift();
}
async function run(db: pg.Pool | pg.PoolClient, text: string, values?: unknown[]): Promise<any[]> {
  count(text);
  if (!values) return (await db.query(text)).rows;
  let name = names.get(text);
  if (!name) names.set(text, (name = `expert_${names.size + 1}`));
  return (await db.query({ name, text, values })).rows;
}
/** Several constant statements in one round trip (the simple protocol: no parameters); the rows of each. */
async function script(db: pg.PoolClient, text: string): Promise<any[][]> {
  count(text);
  const results = (await db.query(text)) as unknown as pg.QueryResult[];
  return results.map((r) => r.rows);
}

class Failure extends Error {
  constructor(readonly status: number, readonly type: string, message: string, readonly param?: string) {
    super(message);
  }
}
const notServed = (what: string) => new Failure(400, 'invalid_request', `The expert baseline does not serve ${what}`);
const notFound = (what: string, id: string, param?: string) => new Failure(404, 'not_found', `No such ${what}: '${id}'`, param);
const errorBody = (f: Failure, requestId: string) =>
  ({ error: { type: f.type, message: f.message, ...(f.param ? { param: f.param } : {}), request_id: requestId } });

// ---------------------------------------------------------------------------------------------------------------
// Authentication: the key's columns come with every statement (KEY below); these judge them.

const HEAD = specData.versions[0];
const OLDEST = specData.versions[specData.versions.length - 1];

/** The API key's columns, as each statement selects them from `api_keys k`: its verdicts computed by the database. */
const KEY = `k.id as key_id, k.account_id as key_account_id, k.role as key_role, k.statements as key_statements,
  k.ip_allowlist as key_ip_allowlist, k.api_version_date::text as key_version_pin, k.revoked_at is not null as key_revoked,
  coalesce(k.expires_at <= now(), false) as key_expired,
  (k.last_used_at is null or k.last_used_at < now() - interval '1 minute') as key_stale`;

/** The SHA-256 of the bearer API key: what api_keys.secret_hash holds. */
function secretHash(header: string | undefined): string {
  if (!header) throw new Failure(401, 'authentication_required', 'No credentials: send Authorization: Bearer <API key>');
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (!bearer || !bearer[1].startsWith('sk_')) throw notServed('credentials other than API keys (Authorization: Bearer sk_...)');
  return createHash('sha256').update(bearer[1]).digest('hex');
}

function ipAllowed(allowlist: string[], ip: string): boolean {
  if (allowlist.length === 0) return true;
  const list = new BlockList();
  for (const entry of allowlist) {
    const [address, bits] = entry.split('/');
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (bits !== undefined) list.addSubnet(address, Number(bits), type);
    else list.addAddress(address, type);
  }
  const bare = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  return list.check(bare, isIPv6(bare) ? 'ipv6' : 'ipv4');
}

const versionOn = (date: string) => specData.versions.find((v) => v <= date) ?? null;

/** Refuses what runtime/auth.ts refuses (401s), and versions other than the newest; records the key's use at minute
 * resolution, as the framework does. */
async function authenticate(row: Record<string, any> | undefined, req: FastifyRequest, reply: FastifyReply, db: pg.Pool | pg.PoolClient) {
  if (!row) throw new Failure(401, 'authentication_required', 'Unknown API key');
  if (row.key_revoked) throw new Failure(401, 'authentication_required', 'This API key has been revoked');
  if (row.key_expired) throw new Failure(401, 'authentication_required', 'This API key has expired');
  if (!ipAllowed(row.key_ip_allowlist, req.ip)) throw new Failure(401, 'authentication_required', `This API key may not be used from ${req.ip}`);
  const asked = req.headers['api-version-date'];
  const version = typeof asked === 'string' && asked !== '' ? versionOn(asked.slice(0, 10))
    : row.key_version_pin ? versionOn(row.key_version_pin) ?? OLDEST : OLDEST;
  if (version !== HEAD) throw notServed(`API version ${version} (only ${HEAD})`);
  reply.header('Api-Version-Date', HEAD);
  if (row.key_stale) {
    await run(db, `update api_keys set last_used_at = date_trunc('milliseconds', now())
      where id = $1 and (last_used_at is null or last_used_at < now() - interval '1 minute')`, [row.key_id]);
  }
}

const matches = (pattern: string, scope: string) =>
  pattern === '*' || pattern === scope || (pattern.endsWith(':*') && scope.startsWith(pattern.slice(0, -1)));

/** Whether the key holds `scope`: its role's scopes, or else its allow statements less its deny statements. */
function holds(row: Record<string, any>, scope: string): boolean {
  if (row.key_role) {
    const granted = (specData.roles as Record<string, readonly string[]>)[row.key_role] ?? [];
    return granted.some((p) => matches(p, scope));
  }
  const statements = row.key_statements as { effect: string; actions: string[] }[];
  const of = (effect: string) => statements.filter((s) => s.effect === effect).flatMap((s) => s.actions);
  return of('allow').some((p) => matches(p, scope)) && !of('deny').some((p) => matches(p, scope));
}

function requireScope(row: Record<string, any>, scope: string, accountId: string) {
  if (!holds(row, scope)) throw new Failure(403, 'permission_denied', `This credential lacks the ${scope} permission on ${accountId}`);
}

/** The key's own account or one of its connected accounts, joined as `a`; anything else is not there (a 404). */
const VISIBLE = (id: string) => `accounts a on a.id = ${id} and (a.id = k.account_id or a.parent_id = k.account_id)`;

// ---------------------------------------------------------------------------------------------------------------
// Rendering, in JavaScript (EXPERT_JSON=js) and in SQL (both produce the framework's bodies).

// The currencies' ISO 4217 exponents are the framework's table (runtime/money.ts): data, not the framework's work.
/** The exponent of a lowercase currency in SQL: ISO's table, 2 for every other code. */
const sqlExponent = (currency: string) =>
  `case ${currency} ${[...CURRENCY_EXPONENTS].map(([c, e]) => `when '${c}' then ${e}`).join(' ')} else 2 end`;
const sqlMoney = (amount: string, currency = `'usd'`) => `json_build_object('amount', ${amount}, 'currency', lower(${currency}),
  'decimals', ${sqlExponent(`lower(${currency})`)}, 'display_decimals', ${sqlExponent(`lower(${currency})`)})`;
/** A timestamp as JavaScript's toISOString writes it (the columns hold milliseconds). */
const sqlTime = (ts: string) => `to_char(${ts} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const COLLECTED = ['succeeded', 'refunded', 'partially_refunded'];

/** A payments row with its buyer's username, name and picture -> the Payment resource. */
function payment(r: Record<string, any>, list: boolean) {
  const m = (amount: number) => money(amount, r.currency);
  return {
    id: r.id,
    account_id: r.account_id,
    plan_id: r.plan_id,
    product_id: r.product_id,
    membership_id: r.membership_id,
    member_id: r.member_id,
    promo_code_id: r.promo_code_id,
    shipment_id: r.shipment_id,
    payment_method_id: r.payment_method_id,
    user: r.user_id ? { id: r.user_id, username: r.buyer_username, name: r.buyer_name, profile_picture: r.buyer_picture } : null,
    total: m(r.total),
    subtotal: m(r.subtotal),
    discount_amount: m(r.discount_amount),
    tax_amount: m(r.tax_amount),
    refunded_amount: m(r.refunded_amount),
    tax_refunded_amount: m(r.tax_refunded_amount),
    amount_after_fees: m(COLLECTED.includes(r.status) ? r.total - r.fee_amount : 0),
    usd_total: money(r.usd_total),
    billing_reason: r.billing_reason,
    currency: r.currency,
    status: r.status,
    last_payment_attempt_at: r.last_payment_attempt_at,
    next_payment_attempt_at: r.next_payment_attempt_at,
    settlement_time_at: list ? null : r.settlement_time_at,
    payment_instrument: r.payment_instrument,
    payment_method_type: r.payment_method_type,
    next_action: r.next_action,
    failure_code: r.failure_code,
    failure_message: r.failure_message,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** The columns `payment` reads, from payments `p` and the buyer `u`. */
const PAYMENT_COLUMNS = `p.id, p.account_id, p.plan_id, p.product_id, p.membership_id, p.member_id, p.promo_code_id, p.shipment_id,
  p.payment_method_id, p.user_id, p.total, p.subtotal, p.discount_amount, p.tax_amount, p.refunded_amount, p.tax_refunded_amount,
  p.fee_amount, p.usd_total, p.billing_reason, p.currency, p.status, p.last_payment_attempt_at, p.next_payment_attempt_at,
  p.settlement_time_at, p.payment_instrument, p.payment_method_type, p.next_action, p.failure_code, p.failure_message, p.created_at, p.updated_at,
  u.username as buyer_username, u.name as buyer_name, u.profile_picture_url as buyer_picture`;

/** `payment` in SQL: a json value from payments `p` and the buyer's username, name and picture expressions. */
function sqlPayment(buyer: { username: string; name: string; picture: string }, list: boolean): string {
  const m = (amount: string) => sqlMoney(amount, 'p.currency');
  return `json_build_object('id', p.id, 'account_id', p.account_id, 'plan_id', p.plan_id, 'product_id', p.product_id,
    'membership_id', p.membership_id, 'member_id', p.member_id, 'promo_code_id', p.promo_code_id, 'shipment_id', p.shipment_id,
    'payment_method_id', p.payment_method_id,
    'user', case when p.user_id is null then null
      else json_build_object('id', p.user_id, 'username', ${buyer.username}, 'name', ${buyer.name}, 'profile_picture', ${buyer.picture}) end,
    'total', ${m('p.total')}, 'subtotal', ${m('p.subtotal')}, 'discount_amount', ${m('p.discount_amount')},
    'tax_amount', ${m('p.tax_amount')}, 'refunded_amount', ${m('p.refunded_amount')}, 'tax_refunded_amount', ${m('p.tax_refunded_amount')},
    'amount_after_fees', ${m(`case when p.status in (${COLLECTED.map((s) => `'${s}'`).join(', ')}) then p.total - p.fee_amount else 0 end`)},
    'usd_total', ${sqlMoney('p.usd_total')}, 'billing_reason', p.billing_reason, 'currency', p.currency, 'status', p.status,
    'last_payment_attempt_at', ${sqlTime('p.last_payment_attempt_at')}, 'next_payment_attempt_at', ${sqlTime('p.next_payment_attempt_at')},
    'settlement_time_at', ${list ? 'null' : sqlTime('p.settlement_time_at')}, 'payment_instrument', p.payment_instrument,
    'payment_method_type', p.payment_method_type, 'next_action', p.next_action, 'failure_code', p.failure_code, 'failure_message', p.failure_message,
    'created_at', ${sqlTime('p.created_at')}, 'updated_at', ${sqlTime('p.updated_at')})`;
}
const SQL_BUYER = { username: 'u.username', name: 'u.name', picture: 'u.profile_picture_url' };

// ---------------------------------------------------------------------------------------------------------------
// GET /accounts/{id}: one statement: the key, the account if visible, its parent, balances (ledger_balances, by key),
// reward milestones with this account's payouts, and the offers (none while Economic Intelligence is on or in trial).

const OFFERS_HIDDEN = 'coalesce(a.economic_intelligence_ends_at > now() or a.economic_intelligence_trial_ends_at > now(), false)';
const ACCOUNT_FROM = `from api_keys k left join ${VISIBLE('$2')} left join accounts pa on pa.id = a.parent_id where k.secret_hash = $1`;

const ACCOUNT_JS = `select ${KEY}, a.id, a.title, a.email, a.route, a.logo_url, a.country, a.status, a.business_type, a.industry_type,
    a.metadata, a.send_customer_emails, a.affiliate_code, a.blueprint_id, a.three_d_secure_policy, a.undated_pending_reason,
    a.lifetime_volume_usd, a.economic_intelligence_ends_at, a.tax_remitted_by, a.tax_type, a.product_tax_code_id, a.business_address,
    a.tax_identifiers, a.client_id, a.allowed_origins, a.created_at, a.updated_at,
    pa.id as parent_id, pa.title as parent_title, pa.route as parent_route, pa.logo_url as parent_logo_url,
    (select json_object_agg(b.bucket, b.amount) from ledger_accounts l join ledger_balances b on b.ledger_id = l.id
      where l.account_id = a.id and l.kind = 'business' and b.currency = 'usd') as balances,
    (select json_agg(json_build_array(m.id, m.title, m.threshold_usd, rp.status) order by m.threshold_usd)
      from reward_milestones m left join reward_payouts rp on rp.account_id = a.id and rp.milestone_id = m.id) as milestones,
    case when ${OFFERS_HIDDEN} then null else (select json_agg(json_build_array(o.key, o.duration, o.duration_unit, o.auto_renew,
      o.price_amount, o.currency) order by o.position) from economic_intelligence_offers o) end as offers
  ${ACCOUNT_FROM}`;

/** The account without `rewards` (which depend on the key's scopes: spliced in by the caller) as JSON text. */
const ACCOUNT_SQL = `select ${KEY}, a.id,
    json_build_object('id', a.id, 'title', a.title, 'email', a.email, 'route', a.route, 'logo_url', a.logo_url, 'country', a.country,
      'status', a.status,
      'parent_account', case when pa.id is null then null
        else json_build_object('id', pa.id, 'title', pa.title, 'route', pa.route, 'logo_url', pa.logo_url) end,
      'business_type', a.business_type, 'industry_type', a.industry_type, 'metadata', a.metadata,
      'send_customer_emails', a.send_customer_emails, 'affiliate_code', a.affiliate_code, 'blueprint_id', a.blueprint_id,
      'three_d_secure_policy', a.three_d_secure_policy,
      'payment_controls', json_build_object('undated_pending_reason', a.undated_pending_reason),
      'balance', (select json_build_object(
          'available', ${sqlMoney("coalesce(sum(b.amount) filter (where b.bucket = 'available'), 0)")},
          'pending', ${sqlMoney("coalesce(sum(b.amount) filter (where b.bucket = 'pending'), 0)")},
          'in_transit', ${sqlMoney("coalesce(sum(b.amount) filter (where b.bucket = 'in_transit'), 0)")})
        from ledger_accounts l join ledger_balances b on b.ledger_id = l.id
        where l.account_id = a.id and l.kind = 'business' and b.currency = 'usd'),
      'economic_intelligence_ends_at', ${sqlTime('a.economic_intelligence_ends_at')},
      'economic_intelligence_offers', case when ${OFFERS_HIDDEN} then '[]'::json
        else coalesce((select json_agg(json_build_object('key', o.key, 'duration', o.duration, 'duration_unit', o.duration_unit,
          'auto_renew', o.auto_renew, 'price', ${sqlMoney('o.price_amount', 'o.currency')}) order by o.position)
          from economic_intelligence_offers o), '[]'::json) end,
      'tax_remitted_by', a.tax_remitted_by, 'tax_type', a.tax_type, 'product_tax_code_id', a.product_tax_code_id,
      'business_address', a.business_address, 'tax_identifiers', a.tax_identifiers,
      'created_at', ${sqlTime('a.created_at')}, 'updated_at', ${sqlTime('a.updated_at')})::text as body,
    coalesce((select json_agg(json_build_object('id', m.id, 'title', m.title, 'threshold', ${sqlMoney('m.threshold_usd')},
        'progress', ${sqlMoney('least(a.lifetime_volume_usd, m.threshold_usd)')}, 'qualified', a.lifetime_volume_usd >= m.threshold_usd,
        'payout_status', case when a.lifetime_volume_usd >= m.threshold_usd then coalesce(rp.status, 'pending') else 'not_qualified' end)
        order by m.threshold_usd)
      from reward_milestones m left join reward_payouts rp on rp.account_id = a.id and rp.milestone_id = m.id), '[]'::json)::text as rewards
  ${ACCOUNT_FROM}`;

async function retrieveAccount(req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
  const id = req.params.id;
  const [row] = await run(pool, JSON_IN === 'js' ? ACCOUNT_JS : ACCOUNT_SQL, [secretHash(req.headers.authorization), id]);
  await authenticate(row, req, reply, pool);
  if (!row.id) throw notFound('account', id, 'id');
  requireScope(row, 'company:basic:read', id);
  const rewardsShown = holds(row, 'company:balance:read') || holds(row, 'stats:read');
  if (JSON_IN === 'sql') return sendJson(reply, 200, `${row.body.slice(0, -1)}, "rewards" : ${rewardsShown ? row.rewards : '[]'}}`);
  const balance = (bucket: string) => money(Number(row.balances?.[bucket] ?? 0));
  return {
    id: row.id,
    title: row.title,
    email: row.email,
    route: row.route,
    logo_url: row.logo_url,
    country: row.country,
    status: row.status,
    parent_account: row.parent_id ? { id: row.parent_id, title: row.parent_title, route: row.parent_route, logo_url: row.parent_logo_url } : null,
    business_type: row.business_type,
    industry_type: row.industry_type,
    metadata: row.metadata,
    send_customer_emails: row.send_customer_emails,
    affiliate_code: row.affiliate_code,
    blueprint_id: row.blueprint_id,
    three_d_secure_policy: row.three_d_secure_policy,
    payment_controls: { undated_pending_reason: row.undated_pending_reason },
    client_id: row.id === row.key_account_id ? row.client_id : null,
    allowed_origins: row.allowed_origins,
    balance: { available: balance('available'), pending: balance('pending'), in_transit: balance('in_transit') },
    rewards: rewardsShown
      ? (row.milestones ?? []).map(([mid, title, threshold, payout]: [string, string, number, string | null]) => {
        const qualified = row.lifetime_volume_usd >= threshold;
        return {
          id: mid, title, threshold: money(threshold), progress: money(Math.min(row.lifetime_volume_usd, threshold)), qualified,
          payout_status: qualified ? (payout ?? 'pending') : 'not_qualified',
        };
      })
      : [],
    economic_intelligence_ends_at: row.economic_intelligence_ends_at,
    economic_intelligence_offers: (row.offers ?? []).map(([key, duration, unit, autoRenew, price, currency]: any[]) =>
      ({ key, duration, duration_unit: unit, auto_renew: autoRenew, price: money(Number(price), currency) })),
    tax_remitted_by: row.tax_remitted_by,
    tax_type: row.tax_type,
    product_tax_code_id: row.product_tax_code_id,
    business_address: row.business_address,
    tax_identifiers: row.tax_identifiers,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// GET /payments/{id}: one statement: the key, the payment with its buyer, and whether its account is visible.

const PAYMENT_FROM = `from api_keys k left join payments p on p.id = $2 left join users u on u.id = p.user_id
  left join ${VISIBLE('p.account_id')} where k.secret_hash = $1`;
const PAYMENT_JS = `select ${KEY}, a.id as visible, ${PAYMENT_COLUMNS} ${PAYMENT_FROM}`;
const PAYMENT_SQL = `select ${KEY}, a.id as visible, p.account_id, ${sqlPayment(SQL_BUYER, false)}::text as body ${PAYMENT_FROM}`;

async function retrievePayment(req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
  const id = req.params.id;
  const [row] = await run(pool, JSON_IN === 'js' ? PAYMENT_JS : PAYMENT_SQL, [secretHash(req.headers.authorization), id]);
  await authenticate(row, req, reply, pool);
  if (!row.visible) throw notFound('payment', id, 'id');
  requireScope(row, 'payment:basic:read', row.account_id);
  return JSON_IN === 'js' ? payment(row, false) : sendJson(reply, 200, row.body);
}

// ---------------------------------------------------------------------------------------------------------------
// GET /payments?account_id=&first=&after=: one statement: the key, the account if visible, and the page (one row
// more than asked, to tell whether there is a next page), newest first on the (account_id, created_at, id) index.
// The account is a range ordered first, as the framework writes it (runtime/pagination.ts, Leading): as
// `p.account_id = a.id`, PostgreSQL walked payments_created_at_id_index and tested every newer payment of every
// other account (5 ms of PostgreSQL CPU per page in a full run, after the renewals scenario's newer payments).

const LIST_MAX = 100;
const pageOf = (after: boolean) => `select ${PAYMENT_COLUMNS} from payments p left join users u on u.id = p.user_id
    where p.account_id >= a.id and p.account_id <= a.id${after ? ' and (p.created_at, p.id) < ($4::timestamptz, $5)' : ''}
    order by p.account_id desc, p.created_at desc, p.id desc limit $3`;
const LIST_JS = (after: boolean) => `select ${KEY}, a.id as visible, p.*
  from api_keys k left join ${VISIBLE('$2')} left join lateral (${pageOf(after)}) p on true where k.secret_hash = $1`;
/** The page as JSON text, its size (up to one more than asked), and the first and last rows' cursor values. */
const LIST_SQL = (after: boolean) => `select ${KEY}, a.id as visible, page.*
  from api_keys k left join ${VISIBLE('$2')} left join lateral (
    select (json_agg(${sqlPayment({ username: 'p.buyer_username', name: 'p.buyer_name', picture: 'p.buyer_picture' }, true)}
        order by p.created_at desc, p.id desc) filter (where p.n < $3))::text as data,
      count(*) as fetched,
      (array_agg(${sqlTime('p.created_at')} order by p.n) filter (where p.n < $3)) as times,
      (array_agg(p.id order by p.n) filter (where p.n < $3)) as ids
    from (select page.*, row_number() over () as n from (${pageOf(after)}) page) p) page on true
  where k.secret_hash = $1`;
const LISTS = { js: [LIST_JS(false), LIST_JS(true)], sql: [LIST_SQL(false), LIST_SQL(true)] };

const encodeCursor = (at: string, id: string) => Buffer.from(JSON.stringify([at, id])).toString('base64url');
function decodeCursor(cursor: string): [string, string] {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v[0])
      && !Number.isNaN(Date.parse(v[0])) && typeof v[1] === 'string') return v as [string, string];
  } catch {
    // the 400 below
  }
  throw new Failure(400, 'invalid_request', "The cursor in 'after' is not valid; pass an end_cursor from a previous page", 'after');
}

async function listPayments(req: FastifyRequest<{ Querystring: Record<string, string> }>, reply: FastifyReply) {
  const { account_id: accountId, first, after, ...rest } = req.query;
  if (!accountId || Object.keys(rest).length) throw notServed('GET /payments other than by account_id with first and after');
  const size = first === undefined ? 10 : Number(first);
  if (!Number.isInteger(size) || size < 1 || size > LIST_MAX) throw new Failure(400, 'invalid_request', `first must be an integer from 1 to ${LIST_MAX}`, 'first');
  const cursor = after === undefined ? [] : decodeCursor(after);
  const text = LISTS[JSON_IN][after === undefined ? 0 : 1];
  const rows = await run(pool, text, [secretHash(req.headers.authorization), accountId, size + 1, ...cursor]);
  await authenticate(rows[0], req, reply, pool);
  const head = rows[0];
  if (!head.visible) throw notFound('account', accountId, 'account_id');
  requireScope(head, 'payment:basic:read', accountId);
  if (JSON_IN === 'sql') {
    const n = Number(head.fetched);
    const last = Math.min(n, size) - 1;
    const pageInfo = {
      start_cursor: last >= 0 ? encodeCursor(head.times[0], head.ids[0]) : null,
      end_cursor: last >= 0 ? encodeCursor(head.times[last], head.ids[last]) : null,
      has_next_page: n > size,
      has_previous_page: after !== undefined,
    };
    return sendJson(reply, 200, `{"data":${head.data ?? '[]'},"page_info":${JSON.stringify(pageInfo)}}`);
  }
  const fetched = head.id === null ? [] : rows;
  const page = fetched.slice(0, size);
  const cursorOf = (r: Record<string, any> | undefined) => (r ? encodeCursor(r.created_at, r.id) : null);
  return {
    data: page.map((r) => payment(r, true)),
    page_info: {
      start_cursor: cursorOf(page[0]),
      end_cursor: cursorOf(page[page.length - 1]),
      has_next_page: fetched.length > size,
      has_previous_page: after !== undefined,
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// POST /payments with an Idempotency-Key: a saved card of a member charged a variant's price.
//   1. one read (outside any transaction): the key, the account if visible, the member with its buyer and card, and
//      the variant with its account's 3-D Secure policy (what the framework reads in auth, access, resolveSource and
//      priceOf);
//   2. BEGIN and the key's transaction-scoped advisory lock, in one round trip (runtime/idempotency.ts's lock key):
//      a second request with the key while this one runs gets a 409; a crash anywhere rolls back and frees the key;
//   3. one statement, in that transaction and after the lock (so its snapshot sees a commit that released it): a
//      stored response of the key (then it is replayed, nothing written), else the payment row and its collection
//      job (graphile_worker.add_job, as runtime/jobs.ts calls it), returning the response built in SQL;
//   4. the idempotency record holding the response, sealed with runtime/sealed-secrets.ts as the framework stores it
//      (a stored response may show a secret), with COMMIT (one simple query, values quoted as literals); a replay
//      only commits.
// A refusal the handler would make (no such member, card or variant) is stored under the key like the framework's,
// in the same way (steps 2 to 4, step 3 reading only the stored response); a refusal before the claim
// (authentication, the account's visibility and scope) is not, as in the framework.

const CHARGE_READ = `select ${KEY}, a.id as visible, a.three_d_secure_policy as account_policy,
    m.id as member_id, m.user_id as buyer_id, u.username, u.name, u.profile_picture_url,
    pm.id as method_id, pm.card_brand, pm.last4, pm.exp_month, pm.exp_year, pm.test_behaviour,
    v.id as plan_id, v.product_id, v.currency, fx.usd_rate_e8, v.plan_type, v.initial_price, v.renewal_price, v.three_d_secure_policy as plan_policy,
    v.stock, v.plan_type = 'renewal' and exists (select 1 from memberships ms where ms.account_id = v.account_id
      and ms.user_id = m.user_id and ms.plan_id = v.id and ms.status in ('trialing', 'active', 'past_due')) as held
  from api_keys k
  left join ${VISIBLE('$2')}
  left join members m on m.id = $3 and m.account_id = a.id
  left join users u on u.id = m.user_id
  left join payment_methods pm on pm.id = $4 and pm.member_id = m.id and pm.account_id = m.account_id
  left join plans v on v.id = $5 and v.account_id = a.id
    and exists (select 1 from products pr where pr.id = v.product_id and pr.deleted_at is null)
    and (v.deleted_at is null or (v.plan_type = 'renewal' and exists (select 1 from memberships ms where ms.account_id = v.account_id
      and ms.user_id = m.user_id and ms.plan_id = v.id and ms.status in ('trialing', 'active', 'past_due'))))
  left join fx_rates fx on fx.currency = v.currency
  where k.secret_hash = $1`;

/** The key's stored response, if any: $1 credential, $2 key. */
const PRIOR = `prior as (select request_hash, status_code, response from idempotency_keys
    where credential_id = $1 and key = $2 and state = 'done' and expires_at > now())`;
const OUTCOME = `select (select body::text from response) as body, prior.request_hash, prior.status_code, prior.response::text as replay
  from (values (1)) as one (x) left join prior on true`;

const CHARGE_WRITE = `with ${PRIOR},
  payment as (insert into payments (id, account_id, plan_id, product_id, member_id, user_id, payment_method_id, status, billing_reason,
      currency, subtotal, tax_amount, total, usd_total, capture, off_session, three_d_secure_policy, authentication, payment_instrument,
      discount_amount, stock_held, save_payment_method)
    select $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::text, 'processing', $10::text, $11::text, $12::bigint, 0,
      $12::bigint, $13::bigint, $14::boolean, $15::boolean, $16::text, $17::text, $18::jsonb, 0, false, false
    where not exists (select from prior)
    returning *),
  job as materialized (select graphile_worker.add_job('collect_payment', $19::json, run_at => null, max_attempts => 25,
      job_key => $20, job_key_mode => 'replace') from payment),
  response as (select 201 as status, ${sqlPayment({ username: '$21::text', name: '$22::text', picture: '$23::text' }, false)}::jsonb as body
    from payment p where (select count(*) from job) = 1)
${OUTCOME}`;

/** A refusal writes nothing but its record: only the key's stored response is read. */
const REFUSAL_READ = `with ${PRIOR}, response as (select null::jsonb as body where false)
${OUTCOME}`;

/** The statement recording a key's response, sent with COMMIT (a simple query: values quoted as literals). The
 * response is sealed with the framework's function (runtime/sealed-secrets.ts), the id of what the request made
 * beside it, as runtime/idempotency.ts stores it. */
function recordStatement(credentialId: string, key: string, operationId: string, hash: string, status: number, text: string, id?: string) {
  const stored = JSON.stringify({ ...(id === undefined ? {} : { id }), sealed: seal(text) });
  return `insert into idempotency_keys (credential_id, key, operation_id, request_hash, state, status_code, response, expires_at)
    values (${[credentialId, key, operationId, hash].map(quoteLiteral).join(', ')}, 'done', ${Number(status)}, ${quoteLiteral(stored)}::jsonb,
      now() + interval '24 hours')
    on conflict (credential_id, key) do update set operation_id = excluded.operation_id, request_hash = excluded.request_hash,
      state = 'done', status_code = excluded.status_code, response = excluded.response, expires_at = excluded.expires_at, updated_at = now()`;
}

/** A stored response's text to replay: opened when sealed (a record from before sealing is as it was). */
function storedText(response: string): string {
  const stored = JSON.parse(response);
  return stored && typeof stored.sealed === 'string' && isSealed(stored.sealed) ? unseal(stored.sealed) : response;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  }
  return value;
}
/** As runtime/idempotency.ts: the operation, path parameters and body (with the spec's defaults) hashed. */
const requestHash = (body: unknown) => createHash('sha256').update(JSON.stringify(['createPayment', {}, canonical(body)])).digest('hex');
/** As runtime/idempotency.ts: the advisory lock's key for a credential's Idempotency-Key. */
const lockKey = (credentialId: string, key: string) =>
  createHash('sha256').update(credentialId).update('\0').update(key).digest().readBigInt64BE(0);

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function newId(prefix: string): string {
  let out = prefix;
  for (const b of randomBytes(32)) {
    if (b < 248) out += ALPHABET[b % 62];
    if (out.length === prefix.length + 16) return out;
  }
  return newId(prefix);
}

const CHARGE_FIELDS = new Set(['account_id', 'member_id', 'payment_method_id', 'plan_id', 'capture', 'off_session', 'save_payment_method']);

async function createPayment(req: FastifyRequest<{ Body: Record<string, any> }>, reply: FastifyReply, requestId: string) {
  const sent = req.body;
  if (!sent || typeof sent !== 'object' || Array.isArray(sent)) throw new Failure(400, 'invalid_request', 'The body must be a JSON object');
  const unserved = Object.keys(sent).filter((k) => !CHARGE_FIELDS.has(k));
  if (unserved.length || sent.save_payment_method === true) throw notServed(`POST /payments with ${unserved.join(', ') || 'save_payment_method'}`);
  for (const field of ['account_id', 'member_id', 'payment_method_id', 'plan_id']) {
    if (typeof sent[field] !== 'string') throw notServed(`POST /payments without ${field} (a saved card charged a variant's price)`);
  }
  const body: Record<string, any> = { capture: true, save_payment_method: false, ...sent }; // the spec's defaults, as the framework's validation adds them
  const idempotencyKey = req.headers['idempotency-key'];
  if (typeof idempotencyKey !== 'string' || !idempotencyKey) throw notServed('POST /payments without an Idempotency-Key');
  if (idempotencyKey.length > 255) throw new Failure(400, 'invalid_request', 'Idempotency-Key must be at most 255 characters', 'Idempotency-Key');
  const hash = secretHash(req.headers.authorization);

  const client = await pool.connect();
  let open = false;
  let broken = false;
  try {
    const [row] = await run(client, CHARGE_READ, [hash, body.account_id, body.member_id, body.payment_method_id, body.plan_id]);
    await authenticate(row, req, reply, client);
    if (!row.visible) throw notFound('account', body.account_id, 'account_id');
    requireScope(row, 'payment:charge', body.account_id);

    // What the handler decides: a refusal, or the row to write.
    let refusal: Failure | null = null;
    let subtotal = 0;
    if (!row.member_id) refusal = notFound('member', body.member_id, 'member_id');
    else if (!row.method_id || !row.last4) refusal = notFound('payment method of this member', body.payment_method_id, 'payment_method_id');
    else if (!row.plan_id) refusal = notFound('variant', body.plan_id, 'plan_id');
    else {
      if (row.stock !== null) throw notServed('variants with a stock');
      subtotal = Number(row.held ? row.renewal_price : row.initial_price);
      if (subtotal <= 0) refusal = new Failure(400, 'invalid_request', 'This variant is free; there is nothing to charge', 'plan_id');
      else if (row.usd_rate_e8 === null) refusal = new Failure(400, 'invalid_request', `The sandbox processor does not charge ${row.currency}`, 'plan_id');
    }

    // The lock key is a number computed here, never the client's text: safe as a literal.
    const [, lock] = await script(client, `BEGIN; SELECT pg_try_advisory_xact_lock(${lockKey(row.key_id, idempotencyKey)}) AS locked`);
    open = true;
    if (!lock[0].locked) {
      throw new Failure(409, 'idempotency_in_progress', 'A request with this Idempotency-Key is still being processed; retry later');
    }
    const [credentialId, requestHashed] = [row.key_id, requestHash(body)];
    let outcome: Record<string, any>;
    let id: string | undefined;
    if (refusal) {
      outcome = (await run(client, REFUSAL_READ, [credentialId, idempotencyKey]))[0];
    } else {
      const policy = effectivePolicy((row.plan_policy ?? row.account_policy) as ThreeDSecurePolicy, subtotal);
      id = newId('pay_');
      outcome = (await run(client, CHARGE_WRITE, [
        credentialId, idempotencyKey,
        id, body.account_id, row.plan_id, row.product_id, row.member_id, row.buyer_id, row.method_id,
        row.plan_type === 'one_time' ? 'one_time' : row.held ? 'subscription_cycle' : 'subscription_create',
        row.currency, subtotal, usdMinorUnits(subtotal, row.currency, BigInt(row.usd_rate_e8)), body.capture, body.off_session ?? true, policy,
        needsAuthentication((row.test_behaviour ?? 'succeeds') as CardBehaviour, policy, false) ? 'required' : 'not_required',
        JSON.stringify({ brand: row.card_brand, last4: row.last4, exp_month: row.exp_month, exp_year: row.exp_year }),
        JSON.stringify({ payment_id: id }), `collect_payment:${id}`, row.username, row.name, row.profile_picture_url,
      ]))[0];
    }
    if (outcome.replay !== null) {
      await run(client, 'COMMIT');
    } else {
      const [status, text] = refusal ? [refusal.status, JSON.stringify(errorBody(refusal, requestId))] : [201, outcome.body as string];
      await script(client, `${recordStatement(credentialId, idempotencyKey, 'createPayment', requestHashed, status, text, id)}; COMMIT`);
    }
    open = false;
    if (outcome.replay !== null) {
      outcome.replay = storedText(outcome.replay);
      if (outcome.request_hash !== requestHashed) {
        throw new Failure(400, 'idempotency_error',
          'This Idempotency-Key was already used with a different request; use a new key for a new request', 'Idempotency-Key');
      }
      reply.header('Idempotent-Replayed', 'true');
      if (outcome.status_code < 300) return sendJson(reply, outcome.status_code, outcome.replay);
      // A replayed error names this request; the original's id goes in a header.
      const replayed = JSON.parse(outcome.replay);
      reply.header('Original-Request', replayed.error.request_id);
      replayed.error.request_id = requestId;
      return reply.code(outcome.status_code).send(replayed);
    }
    if (refusal) throw refusal;
    return sendJson(reply, 201, outcome.body);
  } catch (e) {
    if (open) {
      try {
        await run(client, 'ROLLBACK');
      } catch {
        broken = true; // a connection that cannot roll back is not given back to the pool
      }
    }
    throw e;
  } finally {
    client.release(broken);
  }
}

// POST /payouts, by hand: four round trips.
//   1. one read: the key, the account if visible with its controls and whether its identity is verified, its payout
//      method, its business ledger;
//   2. BEGIN with the key's advisory lock and the key's stored response (one simple query);
//   3. one statement writing the payout, its two postings (the balance trigger refuses an overdraft: a 400), the rail's
//      job, the payout.created event and the event's dispatch job;
//   4. the idempotency record with COMMIT (one simple query, values quoted as literals).
// The rails (a reference table) are read once, as the framework caches them.
const PAYOUT_READ = `select ${KEY}, a.id as visible, a.undated_pending_reason, to_jsonb(m) as method, l.id as ledger_id,
    exists (select 1 from verifications v where v.account_id = a.id and v.purpose = 'identity' and v.status = 'approved') as identity_verified
  from api_keys k
  left join ${VISIBLE('$2')}
  left join payout_methods m on m.id = $3 and m.account_id = a.id
  left join ledger_accounts l on l.account_id = a.id and l.kind = 'business'
  where k.secret_hash = $1`;

const PAYOUT_WRITE = `with payout as (insert into payouts (id, account_id, ledger_id, payout_method_id, status, status_detail, speed, currency,
      amount, fee_amount, markup_fee, net_amount, destination_currency, destination_amount, exchange_rate, estimated_arrival_at, created_at, updated_at)
    values ($1, $2, $3, $4, 'requested', 'Requested; the amount is reserved.', $5, $6, $7, $8, 0, $9, $6, $9, '1', $10, $11, $11) returning id),
  postings as (insert into ledger_postings (entry_id, ledger_id, bucket, currency, amount)
    select $1 || ':requested', $3, b.bucket, $6, b.amount from payout, (values ('available', -$7::bigint), ('in_transit', $7::bigint)) as b (bucket, amount)
    returning 1),
  rail as materialized (select graphile_worker.add_job('payout_rail_step', json_build_object('payout_id', $1::text), run_at => null, max_attempts => 25,
      job_key => 'payout_rail_step:' || $1, job_key_mode => 'replace') from payout),
  event as (insert into events (id, type, account_id, data) select $12, 'payout.created', $2, $13::jsonb from payout returning id),
  dispatch as materialized (select graphile_worker.add_job('dispatch_event', json_build_object('event_id', $12::text), run_at => null,
      max_attempts => 25, job_key => 'dispatch:' || $12, job_key_mode => 'replace') from event)
  select (select count(*) from postings) + (select count(*) from rail) + (select count(*) from dispatch) as written`;

let rails: Promise<Record<string, any>[]> | null = null;
const PAYOUT_FIELDS = new Set(['account_id', 'payout_method_id', 'amount', 'speed', 'currency']);
const dollarsOf = (minor: number) => `${minor < 0 ? '-' : ''}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, '0')}`;
const bpsText = (bps: number) => { const r = (bps % 100).toString().padStart(2, '0').replace(/0+$/, ''); return r ? `${Math.trunc(bps / 100)}.${r}` : String(Math.trunc(bps / 100)); };

async function createPayout(req: FastifyRequest<{ Body: Record<string, any> }>, reply: FastifyReply, requestId: string) {
  const body = req.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Failure(400, 'invalid_request', 'The body must be a JSON object');
  const unserved = Object.keys(body).filter((k) => !PAYOUT_FIELDS.has(k));
  if (unserved.length) throw notServed(`POST /payouts with ${unserved.join(', ')}`);
  if (typeof body.account_id !== 'string' || typeof body.payout_method_id !== 'string' || typeof body.amount !== 'string' || !/^[0-9]{1,12}\.[0-9]{2}$/.test(body.amount)) {
    throw notServed('POST /payouts other than an account\'s payout of a two-decimal amount');
  }
  const idempotencyKey = req.headers['idempotency-key'];
  if (typeof idempotencyKey !== 'string' || !idempotencyKey) throw notServed('POST /payouts without an Idempotency-Key');
  const speed = body.speed ?? 'standard';
  const client = await pool.connect();
  let open = false;
  let broken = false;
  try {
    const [row] = await run(client, PAYOUT_READ, [secretHash(req.headers.authorization), body.account_id, body.payout_method_id]);
    await authenticate(row, req, reply, client);
    if (!row.visible) throw notFound('account', body.account_id, 'account_id');
    requireScope(row, 'payout:create', body.account_id);
    const method = row.method;
    if (!method) throw notFound('payout method', body.payout_method_id, 'payout_method_id');
    rails ??= run(pool, 'select * from supported_payout_methods order by position');
    const rail = (await rails).find((r) => r.id === method.supported_payout_method_id)!;
    const currency = body.currency ?? rail.currency;
    if (currency !== rail.currency || !rail.speeds.includes(speed)) throw notServed('another currency or speed than the method\'s');
    const [whole, cents] = body.amount.split('.');
    const amount = Number(whole) * 100 + Number(cents);
    if (amount < Number(rail.min_amount) || amount > Number(rail.max_amount)) throw new Failure(400, 'invalid_request', 'amount is outside the rail\'s limits', 'amount');
    const fee = Number((BigInt(amount) * BigInt(rail[`${speed}_fee_bps`]) + 5_000n) / 10_000n) + Number(rail[`${speed}_fee_fixed`]);
    if (fee >= amount) throw new Failure(400, 'invalid_request', 'amount must exceed the fee', 'amount');
    if (row.undated_pending_reason) throw new Failure(400, 'invalid_state', 'Payouts are blocked', 'payment_controls.undated_pending_reason');
    // The KYC limit on lifetime payouts of an unverified account (handlers/payouts/kyc-gate.ts) is not served here.
    if (!row.identity_verified) throw notServed('a payout of an account without an approved identity verification');
    if (!row.ledger_id) throw notServed('an account without a ledger');

    const [, , prior] = await script(client, `BEGIN; SELECT pg_try_advisory_xact_lock(${lockKey(row.key_id, idempotencyKey)}) AS locked;
      select request_hash, status_code, response::text from idempotency_keys where credential_id = ${pg.escapeLiteral(row.key_id)}
        and key = ${pg.escapeLiteral(idempotencyKey)} and state = 'done' and expires_at > now()`);
    open = true;
    if (prior[0]) {
      await run(client, 'COMMIT');
      open = false;
      reply.header('Idempotent-Replayed', 'true');
      return sendJson(reply, prior[0].status_code, storedText(prior[0].response));
    }
    const now = new Date(Math.floor(Date.now()));
    const arrival = new Date(now.getTime() + Number(rail[`${speed}_arrival_seconds`]) * 1000).toISOString();
    const id = newId('wdrl_');
    const at = (s: 'standard' | 'instant', f: (s: 'standard' | 'instant') => unknown) => (rail.speeds.includes(s) ? f(s) : null);
    const fees = { standard: at('standard', (x) => ({ percentage: bpsText(rail[`${x}_fee_bps`]), fixed_amount: dollarsOf(Number(rail[`${x}_fee_fixed`])), currency: rail.currency })),
      instant: at('instant', (x) => ({ percentage: bpsText(rail[`${x}_fee_bps`]), fixed_amount: dollarsOf(Number(rail[`${x}_fee_fixed`])), currency: rail.currency })) };
    const arrivals = { standard: at('standard', (x) => new Date(now.getTime() + Number(rail[`${x}_arrival_seconds`]) * 1000).toISOString()),
      instant: at('instant', (x) => rail[`${x}_arrival_seconds`] === null ? null : new Date(now.getTime() + Number(rail[`${x}_arrival_seconds`]) * 1000).toISOString()) };
    const view = {
      id, object: 'payout', account_id: body.account_id, user_id: null, status: 'requested', status_detail: 'Requested; the amount is reserved.',
      speed, currency, amount: dollarsOf(amount), fee_amount: dollarsOf(fee), markup_fee: '0.00', net_amount: dollarsOf(amount - fee),
      destination_currency: rail.currency, destination_amount: dollarsOf(amount - fee), exchange_rate: 1,
      payout_method: {
        id: method.id, object: 'payout_method', account_id: method.account_id, user_id: method.user_id,
        supported_payout_method: { id: rail.id, object: 'supported_payout_method', name: rail.name, delivery_type: rail.delivery_type, countries: rail.countries,
          currency: rail.currency, supports_standard_delivery: rail.speeds.includes('standard'), supports_instant_delivery: rail.speeds.includes('instant'),
          fee_structure: fees, min_amount: dollarsOf(Number(rail.min_amount)), max_amount: dollarsOf(Number(rail.max_amount)) },
        nickname: method.nickname, is_default: method.is_default, status: method.status, destination_currency: method.destination_currency,
        account_reference: `••${method.destination_number.slice(-4)}`, institution_name: method.institution_name,
        first_name: method.recipient_first_name, last_name: method.recipient_last_name, country: method.recipient_country,
        fee_structure: fees, estimated_arrival: arrivals, quote: null, created_at: new Date(method.created_at).toISOString() },
      payout_request_id: null, conversion_request_id: null, estimated_arrival: arrival, failure: null, created_at: now.toISOString(), updated_at: now.toISOString(),
    };
    const text = JSON.stringify(view);
    try {
      await run(client, PAYOUT_WRITE, [id, body.account_id, row.ledger_id, method.id, speed, currency, amount, fee, amount - fee, arrival,
        now.toISOString(), newId('evt_'), text]);
    } catch (e) {
      if ((e as { constraint?: string }).constraint === 'ledger_balances_floor') throw new Failure(400, 'insufficient_funds', 'The balance does not cover this amount.', 'amount');
      throw e;
    }
    const hash = createHash('sha256').update(JSON.stringify(['createPayout', {}, canonical({ speed: 'standard', ...body })])).digest('hex');
    await script(client, `${recordStatement(row.key_id, idempotencyKey, 'createPayout', hash, 201, text, id)}; COMMIT`);
    open = false;
    return sendJson(reply, 201, text);
  } catch (e) {
    if (open) {
      try {
        await run(client, 'ROLLBACK');
      } catch {
        broken = true;
      }
    }
    throw e;
  } finally {
    client.release(broken);
  }
}

// ---------------------------------------------------------------------------------------------------------------

function sendJson(reply: FastifyReply, status: number, text: string) {
  return reply.code(status).type('application/json; charset=utf-8').send(text);
}

const app = Fastify({ logger: false });
const base = specData.basePath;
/** Every route: a request id, and failures as the framework's error envelope. */
function route<R extends FastifyRequest<any>>(handle: (req: R, reply: FastifyReply, requestId: string) => Promise<unknown>) {
  return async (req: R, reply: FastifyReply) => {
    const requestId = `req_${randomBytes(12).toString('base64url')}`;
    reply.header('Request-Id', requestId);
    try {
      return await handle(req, reply, requestId);
    } catch (e) {
      const f = e instanceof Failure ? e : new Failure(500, 'api_error', 'Something went wrong on our side');
      if (!(e instanceof Failure)) console.error(e);
      return reply.code(f.status).send(errorBody(f, requestId));
    }
  };
}
app.get(`${base}/accounts/:id`, route(retrieveAccount));
app.get(`${base}/payments/:id`, route(retrievePayment));
app.get(`${base}/payments`, route(listPayments));
app.post(`${base}/payments`, route(createPayment));
app.post(`${base}/payouts`, route(createPayout));

const url = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.send!({ url });
process.on('message', (message: { type: string }) => {
  if (message.type === 'queries') process.send!({ queries, recent });
  if (message.type === 'cpu') process.send!(process.cpuUsage());
  if (message.type === 'stop') {
    app.server.closeAllConnections();
    process.exit(0);
  }
});
