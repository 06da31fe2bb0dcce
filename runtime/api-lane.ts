// The Current API's requests from the wire, served without Koa: the same middleware functions (runtime/app.ts's
// request envelope, the API entry and the routes) run on a context made for them, which holds only what they use
// (ApiContext) and answers as Koa would. Koa's context costs every request three prototype objects, a listener
// on the response's end, a promise per middleware layer and delegated getters; measured by `npm run bench`.
// Everything else stays Koa's: other paths (health, docs, v2, pages), pages' CORS requests (an Origin header),
// HEAD and OPTIONS, URLs whose parsing takes parseurl's slow path, and in-process replays.
import { STATUS_CODES, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { ApiContext, ApiMiddleware, RequestState } from './request-state.js';

/** Statuses whose answers carry no body (Koa's `statuses.empty`). */
const EMPTY_STATUSES = new Set([204, 205, 304]);
/** The methods the lane takes: HEAD (no body in the answer) and OPTIONS (CORS preflights) go through Koa. */
const LANE_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** Characters after which parseurl (Koa's URL parsing) stops taking the fast path: such URLs go through Koa. */
const UNUSUAL_URL = /[\t\n\f\r #\u00a0\ufeff]/;
const NO_NEXT = async () => {};

/**
 * The server's request listener: requests to `basePath` that the lane takes run `steps` (outermost first) on a
 * LaneContext; every other request goes to `koa`.
 */
export function apiLane(options: { basePath: string; steps: readonly ApiMiddleware[]; koa: RequestListener; logger: Logger }): RequestListener {
  const { steps, koa, logger } = options;
  const prefix = `${options.basePath}/`;
  const run = (ctx: ApiContext, i: number): Promise<unknown> => (i === steps.length ? NO_NEXT() : steps[i](ctx, () => run(ctx, i + 1)));
  return (req, res) => {
    const url = req.url ?? '';
    const method = req.method ?? '';
    if (!url.startsWith(prefix) || !LANE_METHODS.has(method) || req.headers.origin !== undefined || UNUSUAL_URL.test(url)) {
      return koa(req, res);
    }
    const q = url.indexOf('?');
    const ctx = new LaneContext(req, res, method, q < 0 ? url : url.slice(0, q), q < 0 ? '' : url.slice(q + 1));
    run(ctx, 0).then(() => ctx.respond(), (e: unknown) => failed(ctx, e, logger));
  };
}

class LaneRequest {
  constructor(private readonly req: IncomingMessage) {}

  get type(): string {
    const type = this.req.headers['content-type'];
    return type ? type.split(';')[0] : '';
  }

  get length(): number | undefined {
    const length = this.req.headers['content-length'];
    return length === undefined || length === '' ? undefined : ~~length;
  }
}

/** ApiContext with Koa's meaning for each member (koa/lib/request.js, response.js), for the bodies the API writes. */
class LaneContext implements ApiContext {
  state = {} as RequestState;
  params: Record<string, string> = {};
  private answer: unknown = undefined;
  private explicitStatus = false;
  private explicitNullBody = false;
  private parsedQuery: Record<string, string | string[]> | undefined;
  private laneRequest: LaneRequest | undefined;

  constructor(readonly req: IncomingMessage, readonly res: ServerResponse, readonly method: string, readonly path: string,
    readonly querystring: string) {
    // As Koa starts every response: nothing matched yet.
    res.statusCode = 404;
  }

  /** Koa's (koa/lib/search-params.js): a key given once is a string, given more than once a list, in order. */
  get query(): Record<string, string | string[]> {
    if (this.parsedQuery) return this.parsedQuery;
    const query: Record<string, string | string[]> = {};
    for (const [key, value] of new URLSearchParams(this.querystring)) {
      const had = Object.hasOwn(query, key) ? query[key] : undefined;
      const next = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
      Object.defineProperty(query, key, { value: next, writable: true, enumerable: true, configurable: true });
    }
    return (this.parsedQuery = query);
  }

  get ip(): string {
    return this.req.socket.remoteAddress || '';
  }

  get request(): LaneRequest {
    return (this.laneRequest ??= new LaneRequest(this.req));
  }

  get(field: string): string {
    const name = field.toLowerCase();
    const { headers } = this.req;
    if (name === 'referer' || name === 'referrer') return (headers.referrer as string | undefined) || headers.referer || '';
    return (headers[name] as string | undefined) || '';
  }

  set(field: string, value: string): void {
    if (!this.res.headersSent) this.res.setHeader(field, value);
  }

  vary(field: string): void {
    const current = String(this.res.getHeader('Vary') ?? '');
    const names = current.split(',').map((n) => n.trim().toLowerCase()).filter(Boolean);
    if (names.includes('*') || names.includes(field.toLowerCase())) return;
    this.set('Vary', current ? `${current}, ${field}` : field);
  }

  get status(): number {
    return this.res.statusCode;
  }

  set status(code: number) {
    if (this.res.headersSent) return;
    if (!Number.isInteger(code) || code < 100 || code > 999) throw new Error(`invalid status code: ${code}`);
    this.explicitStatus = true;
    this.res.statusCode = code;
    if (this.answer && EMPTY_STATUSES.has(code)) this.body = null;
  }

  get body(): unknown {
    return this.answer;
  }

  set body(value: unknown) {
    this.answer = value;
    if (value === null || value === undefined) {
      if (!EMPTY_STATUSES.has(this.status)) {
        if (this.mediaType() === 'application/json') {
          this.answer = 'null';
          return;
        }
        this.status = 204;
      }
      if (value === null) this.explicitNullBody = true;
      for (const name of ['Content-Type', 'Content-Length', 'Transfer-Encoding']) this.res.removeHeader(name);
      return;
    }
    if (!this.explicitStatus) this.status = 200;
    const typed = this.res.hasHeader('Content-Type');
    if (typeof value === 'string') {
      if (!typed) this.set('Content-Type', /^\s*</.test(value) ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8');
      this.setLength(Buffer.byteLength(value));
    } else if (Buffer.isBuffer(value)) {
      if (!typed) this.set('Content-Type', 'application/octet-stream');
      this.setLength(value.length);
    } else {
      this.res.removeHeader('Content-Length');
      if (!/\bjson\b/i.test(this.mediaType())) this.set('Content-Type', 'application/json; charset=utf-8');
    }
  }

  /** Koa's respond(): the body as set, or the status's text; no body for 204, 205 and 304. */
  respond(): void {
    const { res } = this;
    if (res.writableEnded || (res.socket && !res.socket.writable)) {
      res.end();
      return;
    }
    let body = this.answer;
    if (EMPTY_STATUSES.has(this.status)) {
      this.body = null;
      res.end();
      return;
    }
    if (body === null || body === undefined) {
      if (this.explicitNullBody) {
        res.removeHeader('Content-Type');
        res.removeHeader('Transfer-Encoding');
        this.setLength(0);
        res.end();
        return;
      }
      body = STATUS_CODES[this.status] ?? String(this.status);
      this.set('Content-Type', 'text/plain; charset=utf-8');
      this.setLength(Buffer.byteLength(body as string));
      res.end(body);
      return;
    }
    if (typeof body === 'string' || Buffer.isBuffer(body)) {
      res.end(body);
      return;
    }
    const text = JSON.stringify(body);
    this.setLength(Buffer.byteLength(text));
    res.end(text);
  }

  private mediaType(): string {
    const type = this.res.getHeader('Content-Type');
    return type === undefined ? '' : String(type).split(';')[0];
  }

  private setLength(length: number): void {
    if (!this.res.hasHeader('Transfer-Encoding')) this.set('Content-Length', String(length));
  }
}

/** An error past the request envelope (which answers every error it sees): Koa's answer to one, a plain 500. */
function failed(ctx: LaneContext, e: unknown, logger: Logger): void {
  logger.error({ err: e, request_id: ctx.state.requestId }, 'unhandled error after the response was prepared');
  const { res } = ctx;
  if (res.headersSent || res.writableEnded) {
    res.destroy();
    return;
  }
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  const message = 'Internal Server Error';
  res.statusCode = 500;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', String(Buffer.byteLength(message)));
  res.end(message);
}
