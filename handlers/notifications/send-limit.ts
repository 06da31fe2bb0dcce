// The per-app budget of POST /notifications: NOTIFICATION_SENDS_PER_MINUTE sends (default 30) in any sliding minute
// per API key. Counted from notification_sends in the request's transaction under a transaction lock on the key, so
// every API process shares one exact budget (the general request budgets of runtime/rate-limit.ts are per process
// without Redis), and a refused or rolled-back send spends nothing.
import type { Knex } from 'knex';
import { ApiError } from '../../runtime/errors.js';

const WINDOW_SECONDS = 60;

export function sendsPerMinute(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.NOTIFICATION_SENDS_PER_MINUTE;
  const n = raw === undefined || raw === '' ? 30 : Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`NOTIFICATION_SENDS_PER_MINUTE must be a positive integer, not "${raw}"`);
  return n;
}

/** Spends one send of the key's budget, or throws 429 rate_limited with Retry-After. */
export async function spendSend(db: Knex, apiKeyId: string): Promise<void> {
  const limit = sendsPerMinute();
  await db.raw('select pg_advisory_xact_lock(hashtext(?))', [`notification_sends:${apiKeyId}`]);
  const { rows } = await db.raw(`select count(*)::int as sent,
      ceil(extract(epoch from (min(created_at) + make_interval(secs => ?)) - now()))::int as wait
    from (select created_at from notification_sends where api_key_id = ? and created_at > now() - make_interval(secs => ?)
      order by created_at desc limit ?) recent`, [WINDOW_SECONDS, apiKeyId, WINDOW_SECONDS, limit]);
  const { sent, wait } = rows[0];
  if (sent >= limit) {
    const retryAfter = String(Math.max(1, wait ?? 1));
    throw new ApiError(429, 'rate_limited', `This app has sent its ${limit} notifications per ${WINDOW_SECONDS} s; retry in ${retryAfter} s`,
      undefined, { 'Retry-After': retryAfter, 'RateLimit-Policy': `"notifications";q=${limit};w=${WINDOW_SECONDS}` });
  }
}
