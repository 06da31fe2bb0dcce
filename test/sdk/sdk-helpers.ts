// The official client @whop/sdk 0.0.42, unmodified, pointed at the test server.
import Whop, { APIError } from '@whop/sdk';
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';

/** The client's own default pin (it sends Api-Version-Date: 2026-07-20 unless told otherwise). */
export const PIN = '2026-07-20';
export const LATEST = '2026-09-06';

/** A client on the app; without `version` it keeps the client's default, which is PIN. */
export function sdk(app: TestApp, apiKey: string, options: { version?: string; webhookKey?: string; fetch?: typeof fetch } = {}): Whop {
  return new Whop({ apiKey, baseURL: app.url, maxRetries: 0, ...options });
}

/** A fetch that counts the requests the client makes and records their URLs and headers. */
export function countingFetch() {
  const calls: { url: string; method: string; headers: Headers }[] = [];
  const f = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), method: init?.method ?? 'GET', headers: new Headers(init?.headers) });
    return fetch(input, init);
  }) as typeof fetch;
  return { fetch: f, calls };
}

/** Parameters the client's types do not know at this pin (older names such as company_id). */
export const loose = <T>(params: Record<string, unknown>): T => params as unknown as T;
/** Reads response fields the client's types do not declare. */
export const raw = (value: unknown): any => value;

/** Awaits a client call that must fail; checks the error class and status, returns the error. */
export async function rejects<E extends APIError>(call: Promise<unknown>, kind: abstract new (...args: any[]) => E, status: number): Promise<E> {
  let value: unknown;
  try {
    value = await call;
  } catch (err) {
    assert.instance(err, kind, `expected ${kind.name}, got ${String(err)}`);
    assert.is((err as E).status, status, String(err));
    return err as E;
  }
  assert.unreachable(`expected ${kind.name} ${status}, but the call succeeded: ${JSON.stringify(value)}`);
  throw new Error('unreachable');
}

export async function collectAll<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
