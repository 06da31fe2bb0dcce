// Reads a JSON request body with a size limit; every way it can be wrong is a 4xx naming the problem.
import getRawBody from 'raw-body';
import { ApiError } from './errors.js';
import type { ApiContext } from './request-state.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export async function readJsonBody(ctx: ApiContext): Promise<unknown> {
  const length = ctx.request.length;
  const hasBody = ctx.request.type !== '' || (length !== undefined && length > 0) || ctx.get('transfer-encoding') !== '';
  if (!hasBody) return undefined;
  // Koa's request.type is the media type without parameters (charset); compared directly, without type-is's cost.
  if (ctx.request.type.toLowerCase() !== 'application/json') {
    throw new ApiError(400, 'invalid_request', `The body must be application/json, not '${ctx.request.type || 'unspecified'}'`);
  }
  let text: string;
  try {
    // Bytes, decoded here: JSON is UTF-8 (RFC 8259), and raw-body's own decoding goes through iconv-lite.
    text = (await getRawBody(ctx.req, { limit: BODY_LIMIT_BYTES, length })).toString('utf8');
  } catch (e) {
    // The rest of the body is left unread, so the connection cannot carry another request: close it after replying.
    ctx.set('Connection', 'close');
    const err = e as { type?: string };
    if (err.type === 'entity.too.large') {
      throw new ApiError(400, 'invalid_request', `The body exceeds the limit of ${BODY_LIMIT_BYTES} bytes`);
    }
    throw new ApiError(400, 'invalid_request', 'The body could not be read');
  }
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ApiError(400, 'invalid_request', `The body is not valid JSON: ${(e as Error).message}`);
  }
}

const METHODS_WITH_BODIES = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Starts reading the body before the request takes its database connection, so that the connection is not held
 * while the body arrives (under load, even a small body waits a few event-loop turns). The read is awaited, and
 * its errors thrown, where the operation needs the body (pipeline/validation-step.ts), so errors keep their order.
 */
export function prefetchJsonBody(ctx: ApiContext): void {
  if (!METHODS_WITH_BODIES.has(ctx.method)) return;
  const read = readJsonBody(ctx);
  read.catch(() => {}); // thrown where awaited; a request refused before that never awaits it
  ctx.state.body = read;
}

/** The body prefetchJsonBody started reading, or a read started now (routes mounted without the app's middleware). */
export const requestJsonBody = (ctx: ApiContext): Promise<unknown> => ctx.state.body ?? readJsonBody(ctx);
