// Assertions on the one error envelope every failure answers with.
import * as assert from 'uvu/assert';

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** fetch, keeping the raw text as well as the parsed JSON (when the response says it is JSON). */
export async function send(url: string, init: RequestInit = {}): Promise<RawResponse> {
  const res = await fetch(url, init);
  const text = await res.text();
  const isJson = res.headers.get('content-type')?.includes('application/json') ?? false;
  return { status: res.status, headers: res.headers, text, body: isJson && text ? JSON.parse(text) : undefined };
}

/** Signs of a leaked stack trace or internal detail. */
const LEAK = /\n\s+at |\bat (async )?[\w.<>]+ \(|node:internal|node_modules|\/work\/|\.ts:\d+|\.js:\d+|"stack"|TypeError|ReferenceError|SyntaxError: Unexpected token .* in JSON at position/;

export function assertNoLeak(res: { text?: string; body?: unknown }): void {
  const text = res.text ?? JSON.stringify(res.body);
  assert.not.match(text, LEAK, `internal detail leaked: ${text.slice(0, 500)}`);
}

/**
 * The response is the JSON error envelope with this status and type: a message, the Request-Id header's value
 * as error.request_id, `param` when given (or absent when null), and no stack trace.
 */
export function assertError(
  res: { status: number; headers: Headers; body: any; text?: string },
  status: number,
  type: string,
  param?: string | null,
): void {
  const detail = JSON.stringify(res.body ?? res.text);
  assert.is(res.status, status, detail);
  assert.match(res.headers.get('content-type') ?? '', 'application/json');
  assert.type(res.body?.error, 'object', detail);
  assert.is(res.body.error.type, type, detail);
  assert.type(res.body.error.message, 'string');
  assert.ok(res.body.error.message.length > 10, detail);
  const requestId = res.headers.get('request-id');
  assert.ok(requestId?.startsWith('req_'), `Request-Id header: ${requestId}`);
  assert.is(res.body.error.request_id, requestId);
  if (param === null) assert.is(res.body.error.param, undefined, detail);
  else if (param !== undefined) assert.is(res.body.error.param, param, detail);
  assert.equal(Object.keys(res.body), ['error']);
  assertNoLeak(res);
}
