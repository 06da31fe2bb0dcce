// Request budgets per credential (rate-limiter-flexible): spec/api.yaml rate_limits gives a read budget (GET, HEAD)
// and a write budget (every other method), each so many requests per window. Budgets live in this process's memory,
// or in Redis when REDIS_URL is set, so that every API process (and every machine) spends the same one. Every
// authenticated response says its budget and what is left (IETF RateLimit-Policy and RateLimit headers); a spent
// budget is a 429 rate_limited with Retry-After.
import type { ApiContext } from './request-state.js';
import type { Logger } from 'pino';
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from './errors.js';
import type { Principal } from './principal.js';
import { api } from './api-definition.js';

export type Budget = 'read' | 'write';

export interface RateLimitOptions {
  /** a factor on every budget (RATE_LIMIT_MULTIPLIER; default 1): the test suite raises them, a test lowers them */
  multiplier?: number;
  /**
   * a whole factor on every window (RATE_LIMIT_WINDOW_MULTIPLIER; default 1): tests of a spent budget lengthen the
   * spec's one-second windows so that a burst lands in one window however long a loaded machine takes to send it
   */
  windowMultiplier?: number;
  /** keep budgets in this Redis (REDIS_URL), shared by every process using it; null: in this process's memory */
  redisUrl?: string | null;
  /** what the budgets' keys in Redis start with */
  keyPrefix?: string;
}

/**
 * RATE_LIMIT_MULTIPLIER, RATE_LIMIT_WINDOW_MULTIPLIER, REDIS_URL and RATE_LIMIT_KEY_PREFIX (when several servers
 * share a Redis but not budgets).
 */
export function rateLimitOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): RateLimitOptions {
  const raw = env.RATE_LIMIT_MULTIPLIER;
  const multiplier = raw === undefined || raw === '' ? 1 : Number(raw);
  if (!Number.isFinite(multiplier) || multiplier <= 0) throw new Error(`RATE_LIMIT_MULTIPLIER must be a positive number, not "${raw}"`);
  const rawWindow = env.RATE_LIMIT_WINDOW_MULTIPLIER;
  const windowMultiplier = rawWindow === undefined || rawWindow === '' ? 1 : Number(rawWindow);
  if (!Number.isInteger(windowMultiplier) || windowMultiplier < 1) {
    throw new Error(`RATE_LIMIT_WINDOW_MULTIPLIER must be a whole number of at least 1, not "${rawWindow}"`);
  }
  return { multiplier, windowMultiplier, redisUrl: env.REDIS_URL || null, keyPrefix: env.RATE_LIMIT_KEY_PREFIX || undefined };
}

const budgetOf = (method: string): Budget => (method === 'GET' || method === 'HEAD' ? 'read' : 'write');
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export interface RateLimits {
  /** Spends one request of the principal's budget and sets the headers; a 429 when it is spent. */
  consume(ctx: ApiContext, principal: Principal): Promise<void>;
  close(): Promise<void>;
}

export function rateLimits(options: RateLimitOptions, logger: Logger): RateLimits {
  const multiplier = options.multiplier ?? 1;
  const windowMultiplier = options.windowMultiplier ?? 1;
  const keyPrefix = options.keyPrefix ?? 'ratelimit';
  const redis = options.redisUrl ? connect(options.redisUrl, logger) : null;
  // One limiter per budget and size: keys with their own multiplier get a limiter (and keys) of their own. Kept with
  // its RateLimit-Policy header, so a request builds neither the name nor the header again.
  const limiters = new Map<string, { limiter: RateLimiterAbstract; policy: string }>();
  const limiterFor = (budget: Budget, points: number, duration: number) => {
    const name = `${budget}:${points}:${duration}`;
    let entry = limiters.get(name);
    if (!entry) {
      const memory = new RateLimiterMemory({ points, duration, keyPrefix: `${keyPrefix}:${name}` });
      // Redis away: each process keeps the budget alone meanwhile, rather than refusing or letting everything through.
      const limiter = redis
        ? new RateLimiterRedis({ storeClient: redis, points, duration, keyPrefix: `${keyPrefix}:${name}`, insuranceLimiter: memory })
        : memory;
      limiters.set(name, entry = { limiter, policy: `"${budget}";q=${points};w=${duration}` });
    }
    return entry;
  };
  // The usual caller (no multiplier of its own) of each budget: its limiter found without a lookup.
  const usual = new Map<Budget, ReturnType<typeof limiterFor>>();

  return {
    async consume(ctx, principal) {
      const budget = budgetOf(ctx.method);
      const ownMultiplier = principal.rateLimitMultiplier != null;
      let entry = ownMultiplier ? undefined : usual.get(budget);
      if (!entry) {
        const base = api().spec.rateLimits[budget];
        const points = Math.max(1, Math.round(base.requests * multiplier * (principal.rateLimitMultiplier ?? 1)));
        entry = limiterFor(budget, points, base.perSeconds * windowMultiplier);
        if (!ownMultiplier) usual.set(budget, entry);
      }
      const { limiter, policy } = entry;
      let res: RateLimiterRes;
      try {
        res = await limiter.consume(`${principal.kind}:${principal.credentialId}`);
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) throw e;
        const retryAfter = seconds(e.msBeforeNext);
        ctx.state.rateLimitedBudget = budget;
        const { points, duration: window } = limiter;
        throw new ApiError(429, 'rate_limited',
          `This credential has made its ${points} ${budget} requests per ${window} s; retry in ${retryAfter} s`, undefined, {
            'Retry-After': String(retryAfter), 'RateLimit-Policy': policy, RateLimit: `"${budget}";r=0;t=${retryAfter}`,
          });
      }
      ctx.set('RateLimit-Policy', policy);
      ctx.set('RateLimit', `"${budget}";r=${res.remainingPoints};t=${seconds(res.msBeforeNext)}`);
    },
    async close() {
      await redis?.quit().catch(() => redis.disconnect());
    },
  };
}

/** A Redis client that fails fast while disconnected (the insurance limiter takes over) and says so once. */
function connect(url: string, logger: Logger): Redis {
  // Loaded only when REDIS_URL is set: most processes never talk to Redis, and the client costs start-up time.
  const { Redis: Client } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  const redis = new Client(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  let down = false;
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    logger.warn({ err: err.message }, 'rate limits: Redis unreachable; each process keeps its own budgets meanwhile');
  });
  redis.on('ready', () => {
    if (down) logger.info('rate limits: Redis reachable again');
    down = false;
  });
  return redis;
}
