// Requests to the v2 legacy API of a test app, and the checks every v2 response must pass.
import * as assert from 'uvu/assert';
import { queryString, type RequestOptions, type TestApp, type TestResponse } from '../helpers/harness.js';
import { v2Settings } from '../../generated/v2-routes.js';

export async function v2(app: TestApp, method: string, path: string, o: RequestOptions = {}): Promise<TestResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...(o.headers ?? {}) };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.idempotencyKey) headers['idempotency-key'] = o.idempotencyKey;
  let body: string | undefined;
  if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${app.server.url}${v2Settings.basePath}${path}${queryString(o.query)}`, { method, headers, body });
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('application/json') && text ? JSON.parse(text) : text;
  return { status: res.status, headers: res.headers, body: json };
}

/** Deprecation, and Link to the successor Current request (its path, and query when given) and to the guide. */
export function expectV2Headers(app: TestApp, res: TestResponse, successorPath: string): void {
  assert.is(res.headers.get('deprecation'), `@${v2Settings.deprecatedAt}`);
  assert.is(v2Settings.deprecatedAt, Date.parse('2025-01-01T00:00:00Z') / 1000);
  const link = res.headers.get('link') ?? '';
  assert.ok(link.includes(`<${app.server.url}/api/v1${successorPath}>; rel="successor-version"`), `Link was ${link}`);
  assert.ok(link.includes(`<${app.server.url}${v2Settings.guidePath}>; rel="deprecation"`), `Link was ${link}`);
}

export function expectOk(res: TestResponse, status = 200): void {
  assert.is(res.status, status, JSON.stringify(res.body));
}

export function expectError(res: TestResponse, status: number, type: string, param?: string): void {
  assert.is(res.status, status, JSON.stringify(res.body));
  assert.is(res.body.error.type, type, JSON.stringify(res.body));
  if (param !== undefined) assert.is(res.body.error.param, param, JSON.stringify(res.body));
}
