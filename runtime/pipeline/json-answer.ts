// Writing a JSON answer onto the Koa response.
import type { ApiContext } from '../request-state.js';

/** An answer, JSON, written as text (`text` when the pipeline wrote it already; else a success with the version's
 * serialiser, when given: only the schema's fields),
 * so that Koa's body setter takes its string path: given an object, it asks whether it is a `Response`, which on
 * Node 20 loads Node's fetch implementation (~40 ms) at a process's first request. */
export function answerJson(ctx: ApiContext, body: unknown, serializer?: (body: unknown) => string, text?: string): void {
  if (body === null || typeof body !== 'object' || Buffer.isBuffer(body)) {
    ctx.body = body;
    return;
  }
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  ctx.body = text ?? (serializer && ctx.status < 300 ? serializer(body) : JSON.stringify(body));
}
