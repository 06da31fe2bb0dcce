// CORS for the operations a frontend calls with a client id (those listing `client` in `auth:`), and for no other:
// an API key or user token belongs on a server, never in a browser page. The preflight carries no credentials, so
// it answers for the operation alone (any origin may ask); the request that follows names the account by its client
// id, and its origin must be one the account allows (accounts.allowed_origins, ["*"] by default), else it is
// refused. Error responses carry the origin back so that the page can read why it was refused.
import type { ApiContext } from './request-state.js';
import { forbidden } from './errors.js';
import type { Principal } from './principal.js';

/** The request headers a frontend sends to client-id operations. */
export const ALLOWED_REQUEST_HEADERS = 'Authorization, Content-Type, Api-Version-Date, Idempotency-Key';
/** Response headers a page may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS = 'Request-Id, Api-Version-Date, Idempotent-Replayed, Original-Request, Retry-After, RateLimit, '
  + 'RateLimit-Policy, Deprecation, Link, Sunset';
/** How long a browser may reuse a preflight's answer (Chromium caps it at 2 hours). */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** Origins as browsers send them: lower case, without duplicates, in the order given. */
export function normaliseOrigins(origins: readonly string[]): string[] {
  return [...new Set(origins.map((o) => o.toLowerCase()))];
}

export function originAllowed(allowed: readonly string[], origin: string): boolean {
  return allowed.includes('*') || allowed.includes(origin.toLowerCase());
}

/** OPTIONS on a path whose `methods` take a client id, from a page at `origin`. */
export function answerPreflight(ctx: ApiContext, origin: string, methods: string[]): void {
  ctx.set('Access-Control-Allow-Origin', origin);
  ctx.set('Access-Control-Allow-Methods', methods.join(', '));
  ctx.set('Access-Control-Allow-Headers', ALLOWED_REQUEST_HEADERS);
  ctx.set('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
  ctx.set('Vary', 'Origin');
}

/** A request from a page to a client-id operation: recorded so that its response gets the CORS headers it may have. */
export function startCorsRequest(ctx: ApiContext, origin: string): void {
  ctx.state.cors = { origin, allowed: false };
}

/** Once the caller is known: a client id's account must allow the origin (403 otherwise). */
export function checkCorsOrigin(ctx: ApiContext, principal: Principal): void {
  const cors = ctx.state.cors;
  if (!cors || principal.kind !== 'client') return;
  if (!originAllowed(principal.allowedOrigins ?? ['*'], cors.origin)) {
    throw forbidden(`The origin ${cors.origin} is not among the allowed origins of account ${principal.accountId} (its allowed_origins)`);
  }
  cors.allowed = true;
}

/** On the way out: the allowed origin on any response, the asking origin on an error (so the page can read it). */
export function finishCorsResponse(ctx: ApiContext): void {
  const cors = ctx.state.cors;
  if (!cors) return;
  ctx.vary('Origin');
  if (!cors.allowed && ctx.status < 400) return;
  ctx.set('Access-Control-Allow-Origin', cors.origin);
  ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
}
