// Time passing for one seller, through the product: the seller's account goes on a sandbox clock (POST
// /sandbox/clocks) standing a while after now, so its requests, and the jobs run for it, see that later time. For
// tests that run a background job's function themselves: `onClock` runs it at the clock's time, as a clock runs the
// jobs its accounts queued (runtime/clock-advance.ts).
import * as assert from 'uvu/assert';
import type { TestApp } from './harness.js';
import { runOnClock } from '../../runtime/clock.js';
import { headVersion } from '../../runtime/versions.js';

export async function laterOnClock(app: TestApp, seller: { key: string; accountId: string }, ms: number) {
  const res = await app.request('POST', '/sandbox/clocks', {
    token: seller.key, version: headVersion(), body: { account_id: seller.accountId, frozen_time: new Date(Date.now() + ms).toISOString() },
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const clock = { clockId: res.body.id as string, now: res.body.frozen_time as string };
  return { ...clock, onClock: <T>(work: () => Promise<T>) => runOnClock(clock, work) };
}
